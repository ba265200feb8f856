// Reference engine for Chess 2 (six armies, midline invasion; the version without duels),
// written from ../shared/rules/chess2.txt and RULINGS.md (introduction, sections 0 and 4)
// alone. It shares no move logic with lang/ or with the other reference engines.
//
// Options: `white-army` and `black-army`, each one of classic, nemesis, empowered, reaper,
// two-kings, animals (default classic).
//
// Position text: FEN with the piece letters of RULINGS 4.1, upper case White:
//   K Q R B N P   classic king, queen, rook, bishop, knight, pawn (K is the king of every
//                 army but Two Kings; R B N also in Nemesis, Reaper (B N), Two Kings)
//   M L           nemesis, nemesis pawn
//   O X Y Z       empowered queen, bishop, knight, rook
//   A G           reaper, ghost
//   W             warrior king (Two Kings: one or two of them)
//   E H T J       elephant, wild horse, tiger, jungle queen
// Every piece must belong to its side's army (PositionError with the column of the
// letter). Castling field: KQkq, X-FEN or Shredder-FEN, only for a Classic side (written
// back in X-FEN). En-passant field: written (and hashed) only when an en-passant capture is
// legal for the side to move. Halfmove clock: complete turns since the last pawn move or
// removal of a piece (RULINGS 4.12); fullmove number as in chess. A position is taken at
// the start of a turn (never between a normal action and its king-turn). The side that just
// moved must not be in check. Pawns never stand on their last rank; a pawn other than a
// nemesis pawn never stands on its own first rank (a nemesis pawn can step back there).
//
// `start` is the classic start rnbqkbnr with each army's substitutions (RULINGS 4.2);
// `start:N` (N in 0..959, standard Chess960 numbering, 518 = classic) the same from that
// Chess960 back rank, mirrored for Black, with full castling rights for a Classic side.
//
// Actions: one action is one complete turn: the normal action, then for a Two Kings side
// the optional king-turn (a second step, phase 1). A game that is over (the side
// that just moved has all its kings across the midline) has no legal actions.
//
// Board: 64 squares, index = rank index * 8 + file (rank index 0 = rank 1). Positions are
// small values; a move is tried on a copy and kept when every royal of the mover is safe.
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "arbiter/fen.hpp"
#include "chess2/board.hpp"
#include "chess2/rules.hpp"
#include "reference.hpp"

namespace arb::ref {
namespace {

using namespace chess2;  // NOLINT: the engine is written in the rules' own terms

// ---------------------------------------------------------------------------------------
// Start positions.

// The back rank (upper-case classic letters, files a-h) of Chess960 position `n`.
std::string chess960_back_rank(int n) {
  std::string r(8, ' ');
  r[(n % 4) * 2 + 1] = 'B';  // light-squared bishop: b, d, f or h
  n /= 4;
  r[(n % 4) * 2] = 'B';  // dark-squared bishop: a, c, e or g
  n /= 4;
  auto place_in_empty = [&r](int k, char c) {
    for (int x = 0; x < 8; ++x)
      if (r[x] == ' ' && k-- == 0) {
        r[x] = c;
        return;
      }
  };
  place_in_empty(n % 6, 'Q');
  n /= 6;
  static const int kKnights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                      {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
  place_in_empty(kKnights[n][1], 'N');  // the later one first, so the earlier index holds
  place_in_empty(kKnights[n][0], 'N');
  place_in_empty(0, 'R');
  place_in_empty(0, 'K');
  place_in_empty(0, 'R');
  return r;
}

// A classic letter after the army's substitution (RULINGS 4.2).
char substitute(char c, int army) {
  switch (army) {
    case kNemesisArmy:
      return c == 'Q' ? 'M' : c == 'P' ? 'L' : c;
    case kEmpoweredArmy:
      return c == 'Q' ? 'O' : c == 'R' ? 'Z' : c == 'B' ? 'X' : c == 'N' ? 'Y' : c;
    case kReaperArmy:
      return c == 'Q' ? 'A' : c == 'R' ? 'G' : c;
    case kTwoKingsArmy:
      return c == 'Q' || c == 'K' ? 'W' : c;
    case kAnimalsArmy:
      return c == 'Q' ? 'J' : c == 'R' ? 'E' : c == 'B' ? 'T' : c == 'N' ? 'H' : c;
    default:
      return c;
  }
}

// ---------------------------------------------------------------------------------------
// The engine.

class Chess2Engine final : public Engine {
 public:
  explicit Chess2Engine(std::array<int, 2> armies) : rules_(armies) { set_position("start"); }

  std::string name() const override { return "reference:chess2"; }
  GameConfig config() const override {
    return GameConfig{
        "chess2",
        {{"black-army", kArmyNames[rules_.army(kBlack)]}, {"white-army", kArmyNames[rules_.army(kWhite)]}}};
  }

  void set_position(std::string_view text) override {
    Chess2Engine fresh(rules_, 0);
    fresh.load(text);
    *this = std::move(fresh);
  }

  std::string position() const override { return format_fen(fields(pos_)); }

  void legal_actions(std::vector<Action>& out) override {
    out.clear();
    std::vector<Turn> turns;
    rules_.legal_turns(pos_, turns);
    out.reserve(turns.size());
    for (const Turn& t : turns) out.push_back(encode(t));
  }

  void apply(const Action& a) override {
    Turn t = decode(a);
    Piece mover = pos_.b[t.first.from];
    if (!mover || color_of(mover) != pos_.side)
      throw std::invalid_argument("reference:chess2: action does not move a piece of the side to move");
    history_.push_back(pos_);
    rules_.play_turn(pos_, t);
    hashes_.push_back(compute_hash(pos_));
  }

  void undo() override {
    if (history_.empty()) throw std::logic_error("reference:chess2: undo with no action applied");
    pos_ = history_.back();
    history_.pop_back();
    hashes_.pop_back();
  }

  Status status() override {
    Status st;
    st.in_check = rules_.royal_attacked(pos_, pos_.side);
    auto win_for = [](int c) { return c == kWhite ? Result::WhiteWins : Result::BlackWins; };
    if (Rules::over(pos_)) {
      st.result = win_for(1 - pos_.side);
      st.end = Termination::RegionReached;
      st.reason = "midline-invasion";
    } else {
      std::vector<Turn> turns;
      rules_.legal_turns(pos_, turns);
      if (turns.empty()) {
        st.result = win_for(1 - pos_.side);
        st.end = st.in_check ? Termination::Checkmate : Termination::NoLegalMove;
        st.reason = st.in_check ? "checkmate" : "no-legal-move";
      }
    }
    st.claim_fifty = pos_.halfmove >= 100;
    st.claim_threefold = std::count(hashes_.begin(), hashes_.end(), hashes_.back()) >= 3;
    return st;
  }

  uint64_t hash() const override { return hashes_.back(); }
  Color side_to_move() const override { return pos_.side == kWhite ? Color::White : Color::Black; }

  ActionInfo describe(const Action& a) const override {
    Turn t = decode(a);
    ActionInfo info;
    Pos p = pos_;
    for (int i = 0; i < (t.has_second ? 2 : 1); ++i) {
      const Mv& m = i == 0 ? t.first : t.second;
      Piece mover = p.b[m.from];
      if (!mover || color_of(mover) != p.side)
        throw std::invalid_argument("reference:chess2: action does not move a piece of the side to move");
      Step s;
      s.kind = m.kind == kWhirl || m.kind == kStrike ? StepKind::Remove : StepKind::Move;
      s.piece = upper_letter(type_of(mover));
      s.from = to_coord(m.from);
      s.to = to_coord(m.to);
      s.promotion = m.promo ? upper_letter(m.promo) : 0;
      s.phase = static_cast<uint8_t>(i);  // 1: the optional king-turn (RULINGS 4.9)
      if (m.kind == kCastle) {
        bool king_side = file_of(m.to) > file_of(m.from);
        s.castle = king_side ? Castle::KingSide : Castle::QueenSide;
        s.king_to = to_coord(rank_of(m.from) * 8 + (king_side ? 6 : 2));
      }
      StepResult r;
      rules_.play(p, m, i == 1, &r);
      for (auto [sq, pc] : r.removed) s.removed.push_back(PieceAt{to_coord(sq), fen_letter(pc)});
      info.steps.push_back(s);
    }
    return info;
  }

  bool chess960() const override { return chess960_; }

  uint64_t perft(int depth) override {
    if (depth <= 0) return 1;
    return rules_.perft(pos_, depth);
  }

  std::unique_ptr<Engine> clone() const override { return std::make_unique<Chess2Engine>(*this); }

 private:
  Chess2Engine(const Rules& rules, int) : rules_(rules) {}

  [[noreturn]] static void reject(const std::string& msg, size_t col) { throw PositionError(msg, col); }

  // The FEN text of the start position from Chess960 back rank `n`.
  std::string start_text(int n) const {
    std::string rank = chess960_back_rank(n);
    std::string white, black, wp, bp;
    for (char c : rank) {
      white += substitute(c, rules_.army(kWhite));
      black += static_cast<char>(substitute(c, rules_.army(kBlack)) - 'A' + 'a');
      wp += substitute('P', rules_.army(kWhite));
      bp += static_cast<char>(substitute('P', rules_.army(kBlack)) - 'A' + 'a');
    }
    std::string castling;
    for (int c : {kWhite, kBlack}) {
      if (rules_.army(c) != kClassicArmy) continue;
      // Shredder letters: both rook files.
      for (int x = 7; x >= 0; --x)
        if (rank[x] == 'R') castling += static_cast<char>((c == kWhite ? 'A' : 'a') + x);
    }
    if (castling.empty()) castling = "-";
    return black + "/" + bp + "/8/8/8/8/" + wp + "/" + white + " w " + castling + " - 0 1";
  }

  void load(std::string_view text) {
    if (text.substr(0, 5) == "start" && (text.size() == 5 || text[5] == ':')) {
      int n = 518;
      if (text.size() > 5) {
        std::string_view num = text.substr(6);
        if (num.empty() || num.size() > 3) reject("start:N needs N in 0..959", 6);
        n = 0;
        for (size_t i = 0; i < num.size(); ++i) {
          if (num[i] < '0' || num[i] > '9') reject("start:N needs N in 0..959", 6 + i);
          n = n * 10 + (num[i] - '0');
        }
        if (n > 959) reject("start:N needs N in 0..959", 6);
      }
      std::string fen = start_text(n);
      load_fen(fen);
      return;
    }
    load_fen(text);
  }

  void load_fen(std::string_view text) {
    FenFields f = parse_fen(text, 8, 8, "KQRBNPLMOXYZAGWEHTJkqrbnplmoxyzagwehtj");
    // Columns of the board squares and of the fields, for error messages.
    std::array<size_t, 64> col{};
    std::vector<size_t> field_col;
    {
      size_t i = 0;
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      int x = 0, y = 7;
      for (; i < text.size() && text[i] != ' ' && text[i] != '\t'; ++i) {
        char ch = text[i];
        if (ch == '/') {
          --y;
          x = 0;
        } else if (ch >= '0' && ch <= '9') {
          x += ch - '0';
        } else if (x < 8 && y >= 0) {
          col[y * 8 + x++] = i;
        }
      }
      for (; i < text.size(); ++i)
        if (text[i] != ' ' && text[i] != '\t' && (text[i - 1] == ' ' || text[i - 1] == '\t'))
          field_col.push_back(i);
    }
    Pos p;
    int royals[2] = {0, 0};
    for (int s = 0; s < 64; ++s) {
      char ch = f.at(to_coord(s));
      if (!ch) continue;
      int c = (ch >= 'a' && ch <= 'z') ? kBlack : kWhite;
      char up = c == kBlack ? static_cast<char>(ch - 'a' + 'A') : ch;
      int t = type_of_letter(up);
      int army = rules_.army(c);
      std::string where =
          std::string(1, static_cast<char>('a' + file_of(s))) + std::to_string(rank_of(s) + 1);
      if (std::string(kArmyLetters[army]).find(up) == std::string::npos)
        reject(std::string("piece '") + ch + "' on " + where + " is not of " +
                   (c == kWhite ? "White" : "Black") + "'s army (" + kArmyNames[army] + ")",
               col[s]);
      if (is_pawn_type(t) && (rank_of(s) == back_rank(1 - c) || (t == kPawn && rank_of(s) == back_rank(c))))
        reject(std::string("pawn on ") + where + ": not a square a pawn can stand on", col[s]);
      if (is_royal_type(t)) ++royals[c];
      p.b[s] = make_piece(c, t);
    }
    for (int c : {kWhite, kBlack}) {
      const char* who = c == kWhite ? "White" : "Black";
      if (rules_.army(c) == kTwoKingsArmy) {
        if (royals[c] < 1 || royals[c] > 2)
          reject(std::string(who) + " (two-kings) must have one or two warrior kings, has " +
                     std::to_string(royals[c]),
                 0);
      } else if (royals[c] != 1) {
        reject(std::string(who) + " must have exactly one king, has " + std::to_string(royals[c]), 0);
      }
    }
    p.side = f.side == Color::White ? kWhite : kBlack;
    size_t side_col = field_col.size() > 0 ? field_col[0] : 0;
    if (rules_.royal_attacked(p, 1 - p.side))
      reject(std::string(p.side == kWhite ? "Black" : "White") + " is in check but " +
                 (p.side == kWhite ? "White" : "Black") + " is to move",
             side_col);
    // Castling: only a Classic side castles.
    size_t castle_col = field_col.size() > 1 ? field_col[1] : 0;
    std::vector<CastlingRight> rights;
    try {
      rights = resolve_castling(f);
    } catch (const PositionError& e) {
      reject(std::string("castling field: ") + e.what(), castle_col + e.column);
    }
    for (const CastlingRight& r : rights) {
      int c = r.color == Color::White ? kWhite : kBlack;
      if (rules_.army(c) != kClassicArmy)
        reject(std::string("castling field: only a Classic army castles, not ") + kArmyNames[rules_.army(c)],
               castle_col);
      int king_file = -1;
      for (int x = 0; x < 8; ++x)
        if (p.b[back_rank(c) * 8 + x] == make_piece(c, kKing)) king_file = x;
      int side = r.rook_file > king_file ? kKingSide : kQueenSide;
      if (p.rook_file[c][side] >= 0) reject("castling field: two castling rights on one side", castle_col);
      p.rook_file[c][side] = static_cast<int8_t>(r.rook_file);
      if (king_file != 4 || (r.rook_file != 0 && r.rook_file != 7)) chess960_ = true;
    }
    // En passant: kept only when consistent with a double step and a capture is legal.
    if (f.ep) {
      int ep = (f.ep->y - 1) * 8 + f.ep->x;
      int them = 1 - p.side;
      int pawn = shift(ep, 0, forward(them));
      if (rank_of(ep) == back_rank(them) + 2 * forward(them) && !p.b[ep] && pawn >= 0 &&
          p.b[pawn] == make_piece(them, kPawn)) {
        p.ep = ep;
        if (!rules_.ep_capture_legal(p)) p.ep = -1;
      }
    }
    p.halfmove = f.halfmove;
    p.fullmove = f.fullmove;
    pos_ = p;
    history_.clear();
    hashes_.assign(1, compute_hash(pos_));
  }

  FenFields fields(const Pos& p) const {
    FenFields f;
    f.cells.assign(64, 0);
    for (int s = 0; s < 64; ++s)
      if (p.b[s]) f.at(to_coord(s)) = fen_letter(p.b[s]);
    f.side = p.side == kWhite ? Color::White : Color::Black;
    std::vector<CastlingRight> rights;
    for (int c : {kWhite, kBlack})
      for (int side : {kKingSide, kQueenSide})
        if (p.rook_file[c][side] >= 0)
          rights.push_back(CastlingRight{c == kWhite ? Color::White : Color::Black, p.rook_file[c][side]});
    f.castling = format_castling(f, rights);
    if (p.ep >= 0) f.ep = to_coord(p.ep);
    f.halfmove = p.halfmove;
    f.fullmove = p.fullmove;
    return f;
  }

  static uint64_t compute_hash(const Pos& p) {
    const Zobrist& z = zobrist();
    uint64_t h = 0;
    for (int s = 0; s < 64; ++s)
      if (p.b[s]) h ^= z.piece[p.b[s]][s];
    for (int c : {kWhite, kBlack})
      for (int side : {kKingSide, kQueenSide})
        if (p.rook_file[c][side] >= 0) h ^= z.castle[c][p.rook_file[c][side]];
    if (p.ep >= 0) h ^= z.ep_file[file_of(p.ep)];
    if (p.side == kBlack) h ^= z.black_to_move;
    return h;
  }

  Rules rules_;
  Pos pos_;
  bool chess960_ = false;
  std::vector<Pos> history_;
  std::vector<uint64_t> hashes_;  // every position since set_position, the current one last
};

int army_of(const std::map<std::string, std::string>& options, const std::string& key) {
  auto it = options.find(key);
  if (it == options.end()) return kClassicArmy;
  for (int a = 0; a < kArmyCount; ++a)
    if (it->second == kArmyNames[a]) return a;
  throw std::invalid_argument("chess2: option " + key + "=" + it->second +
                              " is not an army (classic, nemesis, empowered, reaper, two-kings, animals)");
}

}  // namespace

std::unique_ptr<Engine> make_chess2_engine(const std::map<std::string, std::string>& options) {
  for (const auto& [key, value] : options)
    if (key != "white-army" && key != "black-army")
      throw std::invalid_argument("chess2: unknown option '" + key + "' (white-army, black-army)");
  return std::make_unique<Chess2Engine>(
      std::array<int, 2>{army_of(options, "white-army"), army_of(options, "black-army")});
}

std::string chess2_back_rank(int n) {
  if (n < 0 || n > 959) throw std::invalid_argument("chess2_back_rank: n must be in 0..959");
  return chess960_back_rank(n);
}

int chess2_dice_start(uint64_t seed) {
  // splitmix64 drives a six-sided die; the rule text's procedure then fills the back rank.
  uint64_t state = seed;
  auto die = [&state]() {
    for (;;) {
      uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      z ^= z >> 31;
      if (z < UINT64_MAX - UINT64_MAX % 6) return static_cast<int>(z % 6) + 1;
    }
  };
  auto roll_at_most = [&die](int hi) {
    for (;;) {
      int r = die();
      if (r <= hi) return r;  // reroll what is too high
    }
  };
  std::string r(8, ' ');
  r[(roll_at_most(4) - 1) * 2] = 'B';      // 1) the k-th dark square from the left: a, c, e, g
  r[(roll_at_most(4) - 1) * 2 + 1] = 'B';  // 2) the k-th light square: b, d, f, h
  auto place = [&r](int k, char c) {       // the k-th (1-based) empty square from the left
    for (int x = 0; x < 8; ++x)
      if (r[x] == ' ' && --k == 0) {
        r[x] = c;
        return;
      }
  };
  place(roll_at_most(6), 'Q');  // 3)
  place(roll_at_most(5), 'N');  // 4) reroll a 6
  place(roll_at_most(4), 'N');  // 5) reroll a 5 or 6
  place(1, 'R');                // 6) king in the middle of the three left, rooks outside
  place(1, 'K');
  place(1, 'R');
  for (int n = 0; n < 960; ++n)
    if (chess960_back_rank(n) == r) return n;
  throw std::logic_error("chess2_dice_start: no Chess960 number");
}

}  // namespace arb::ref
