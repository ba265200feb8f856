// A checked model as a Fairy-Stockfish variants.ini section (export_fsf.hpp).
#include "arbiter/lang/export_fsf.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

#include "arbiter/lang/betza.hpp"
#include "arbiter/lang/construct.hpp"

namespace arb::lang {

namespace {

// A piece's moves as a set, so that `BN` and `NB`, `mWcW` and `W` compare equal.
using MoveKey = std::tuple<int, int, int, bool, bool>;            // dx, dy, range, initial, lame
using MoveSet = std::map<MoveKey, std::tuple<bool, bool, bool>>;  // move, capture, en passant

std::optional<MoveSet> moves_of(const std::string& betza) {
  std::vector<BetzaMove> ms;
  BetzaError err;
  if (!parse_betza(betza, ms, err)) return std::nullopt;
  MoveSet out;
  for (const auto& m : ms) {
    if (!m.unsupported.empty()) return std::nullopt;
    auto& v = out[{m.dx, m.dy, m.range, m.initial, m.lame}];
    std::get<0>(v) |= m.can_move;
    std::get<1>(v) |= m.can_capture;
    std::get<2>(v) |= m.en_passant;
  }
  return out;
}

std::optional<MoveSet> moves_of(const std::vector<BetzaText>& texts) {
  std::string all;
  for (const auto& t : texts) all += t.text;
  return moves_of(all);
}

// Fairy-Stockfish's predefined piece types that both versions know, with their moves.
struct Predefined {
  const char* name;
  const char* betza;
};
constexpr Predefined kPredefined[] = {
    {"knight", "N"},    {"bishop", "B"},          {"rook", "R"},        {"queen", "Q"},
    {"fers", "F"},      {"alfil", "A"},           {"fersAlfil", "FA"},  {"silver", "FfW"},
    {"aiwok", "RNF"},   {"bers", "RF"},           {"archbishop", "BN"}, {"chancellor", "RN"},
    {"amazon", "QN"},   {"knibis", "mNcB"},       {"biskni", "mBcN"},   {"kniroo", "mNcR"},
    {"rookni", "mRcN"}, {"shogiPawn", "fW"},      {"lance", "fR"},      {"shogiKnight", "fN"},
    {"gold", "WfF"},    {"dragonHorse", "BW"},    {"clobber", "cW"},    {"breakthrough", "fmWfF"},
    {"wazir", "W"},     {"commoner", "K"},        {"centaur", "KN"},    {"horse", "nN"},
    {"elephant", "nA"}, {"janggiElephant", "nZ"},
};

const char* predefined_name(const MoveSet& s) {
  for (const auto& p : kPredefined)
    if (moves_of(p.betza) == s) return p.name;
  return nullptr;
}

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// The constructs a section can state (or that do not change the moves: metadata, options,
// expectations). Everything else is reported at its place.
bool expressible(ConstructId id) {
  using enum ConstructId;
  switch (id) {
    case Ruleset:
    case Title:
    case BoardRect:
    case Option:
    case Piece:
    case Castling:
    case CastlingNone:
    case SetupText:
    case Turn:
    case ActionMove:
    case PhaseMove:
    case Legal:
    case RoyalSafe:
    case End:
    case EndCheckmate:
    case EndStalemate:
    case EndInsufficient:
    case EndAgreement:
    case Claim:
    case Expect:
    case ExpectPerft:
    case ExpectStatus:
    case ExpectLegal:
    case ExpectIllegal:
    case Records:
    case RecordName:
    case RecordPlacementNotation:
    case RecordAgreementDraws:
    case RecordTag:
    case FairyStockfish:
    case When:
    case Betza:
    case Royal:
    case Initial:
    case Forbidden:
    case PromoteOnRank:
    case CastlingRook:
    case CastlingKingSide:
    case CastlingQueenSide:
      return true;
    default:
      return false;
  }
}

char file_letter(int x) {
  return static_cast<char>('a' + x);
}

}  // namespace

std::optional<FsfDialect> fsf_dialect(const std::string& word) {
  if (word == "current") return FsfDialect::Current;
  if (word == "11" || word == "11.1") return FsfDialect::Fsf11;
  return std::nullopt;
}

const char* to_string(FsfDialect d) {
  return d == FsfDialect::Current ? "current" : "11";
}

std::optional<std::string> export_fsf(const Model& m, FsfDialect dialect, const std::string& section,
                                      Diagnostics& d) {
  const int errors_before = d.error_count();
  const bool v11 = dialect == FsfDialect::Fsf11;
  const std::string who = v11 ? "Fairy-Stockfish 11.1" : "Fairy-Stockfish";
  for (const ConstructUse* u : m.all_constructs())
    if (!expressible(u->id))
      d.error(u->loc, who + " cannot express `" + u->def().keyword + "` (" + u->def().doc + ")",
              "a variants.ini section states pieces, board, setup, castling, promotion and the "
              "checkmate/stalemate results; use --against reference or drop the statement");

  std::ostringstream o;
  o << "# " << (m.title.empty() ? m.name : m.title) << ": exported by `arbiter export --fsf` for " << who
    << "\n[" << section << "]\n";
  if (m.width > 12 || m.height > 10)
    d.error(m.board_loc, who + " plays boards up to 12 x 10 (its large-board build), not " +
                             std::to_string(m.width) + " x " + std::to_string(m.height));
  o << "maxFile = " << m.width << "\nmaxRank = " << m.height << "\n";

  // Pieces: the royal one, the pawn (the piece that promotes), the others.
  const PieceDef* royal = nullptr;
  const PieceDef* pawn = nullptr;
  for (const auto& p : m.pieces) {
    if (p.royal) {
      if (royal)
        d.error(p.loc, who + " has one royal piece type (its king); `" + royal->name + "` is one already");
      royal = &p;
    }
    if (p.promote_ranks) {
      if (pawn)
        d.error(p.promote_loc,
                who + " promotes one piece type here (its pawn); `" + pawn->name + "` promotes already");
      else
        pawn = &p;
    }
  }
  if (!royal) d.error(m.name_loc, who + " needs a royal piece (its king): none is `royal`");
  std::set<std::string> used_names;
  std::set<char> letters;
  for (const auto& p : m.pieces) letters.insert(lower(p.letter));
  int custom_slot = 0;
  auto custom = [&](const PieceDef& p) {
    std::string b;
    for (const auto& t : p.betza) b += t.text;
    o << "customPiece" << ++custom_slot << " = " << lower(p.letter) << ":" << b << "\n";
  };
  auto betza_loc = [](const PieceDef& p) { return p.betza.empty() ? p.loc : p.betza.front().loc; };
  std::string king_type;  // 11.1: the predefined type a non-K royal moves as
  for (const auto& p : m.pieces) {
    const auto moves = moves_of(p.betza);
    if (!moves) {
      d.error(betza_loc(p), who + " cannot express the moves of `" + p.name + "`");
      continue;
    }
    const char letter = lower(p.letter);
    if (&p == royal) {
      if (*moves == *moves_of("K")) {
        o << "king = " << letter << "\n";
      } else if (!v11) {
        std::string b;
        for (const auto& t : p.betza) b += t.text;
        o << "king = " << letter << ":" << b << "\n";
      } else if (const char* name = predefined_name(*moves)) {
        // 11.1 moves its king as another piece type (`kingType`), named by a letter: that
        // of a piece of the type, or a spare one for a type the ruleset does not use.
        o << "king = " << letter << "\n";
        king_type = name;
      } else {
        d.error(betza_loc(p),
                who + " moves a king only as one of its predefined pieces; `" + p.name +
                    "` moves otherwise (current Fairy-Stockfish takes it: --fsf-dialect current)");
      }
      if (p.initial_ranks && p.find(ConstructId::Initial))
        d.error(p.find(ConstructId::Initial)->loc, who + " has no initial moves for its king");
      continue;
    }
    if (&p == pawn) {
      // The predefined pawn: a step, diagonal captures with en passant, and the double step
      // from the second rank (its `doubleStep`).
      const bool second = p.initial_ranks && p.initial_ranks->lo == 2 && p.initial_ranks->hi == 2;
      if (second && *moves == *moves_of("fmWfceFifmnD")) {
        o << "pawn = " << letter << "\n";
      } else if (!v11 && (!p.initial_ranks || second)) {
        // Current Fairy-Stockfish: any Betza for a pawn type; its `i` moves go from the
        // double-step region, the second rank by default.
        custom(p);
        o << "pawnTypes = " << letter << "\n";
      } else {
        d.error(betza_loc(p),
                who + " cannot move the pawn `" + p.name + "` as `" +
                    (p.betza.empty() ? "" : p.betza.front().text) + "`" +
                    (v11 ? " (11.1 has no custom pieces; current Fairy-Stockfish: --fsf-dialect current)"
                         : " from these initial ranks"));
      }
      if (p.forbidden_ranks && !(p.forbidden_ranks->lo == 1 && p.forbidden_ranks->hi == 1))
        d.error(p.forbidden_loc, who + " forbids pawns on the first rank only");
      const Range pr = *p.promote_ranks;
      if (pr.lo != m.height || pr.hi != m.height) {
        if (v11 && pr.lo == pr.hi) {
          o << "promotionRank = " << pr.lo << "\n";
        } else if (v11) {
          d.error(p.promote_loc, who + " promotes on one rank");
        } else {
          std::string w, b;
          for (int r = pr.lo; r <= pr.hi; ++r) {
            w += (w.empty() ? "*" : " *") + std::to_string(r);
            b += (b.empty() ? "*" : " *") + std::to_string(m.height + 1 - r);
          }
          o << "promotionRegionWhite = " << w << "\npromotionRegionBlack = " << b << "\n";
        }
      }
      std::string to;
      for (char c : p.promote_to) to += lower(c);
      o << "promotionPieceTypes = " << (to.empty() ? "-" : to) << "\n";
      continue;
    }
    if (p.forbidden_ranks) d.error(p.forbidden_loc, who + " forbids ranks to pawns only");
    if (p.promote_ranks) continue;
    const char* name = predefined_name(*moves);
    if (name && used_names.insert(name).second) {
      o << name << " = " << letter << "\n";
    } else if (!v11) {
      custom(p);
    } else {
      d.error(betza_loc(p),
              who + " has no predefined piece that moves as `" + p.name +
                  "` (11.1 has no custom pieces; current Fairy-Stockfish: --fsf-dialect current)");
    }
  }
  if (!king_type.empty()) {
    // The letter of a piece of that type, or a spare letter for it.
    char kt = 0;
    for (const auto& p : m.pieces)
      if (&p != royal) {
        auto mv = moves_of(p.betza);
        const char* name = mv ? predefined_name(*mv) : nullptr;
        if (name && king_type == name) kt = lower(p.letter);
      }
    if (!kt) {
      for (char c = 'z'; c >= 'a' && !kt; --c)
        if (!letters.count(c)) kt = c;
      o << "# `" << kt << "`: only so that kingType can name the " << king_type << "'s move\n"
        << king_type << " = " << kt << "\n";
    }
    o << "kingType = " << kt << "\n";
  }

  // The start.
  if (m.setup_kind != SetupKind::Text)
    d.error(m.setup_loc, who + " starts from one position: `setup` must give it as text");
  else
    o << "startFen = " << m.setup_text << "\n";

  // Castling: the king to the file of each side, the rook next to it on the inside.
  if (!m.castling) {
    o << "castling = false\n";
  } else {
    if (m.ks_rook_to != m.ks_king_to - 1 || m.qs_rook_to != m.qs_king_to + 1)
      d.error(m.castling_loc, who + " puts the castling rook next to the king, on the side it came from");
    if (m.ks_king_to != 6) o << "castlingKingsideFile = " << file_letter(m.ks_king_to) << "\n";
    if (m.qs_king_to != 2) o << "castlingQueensideFile = " << file_letter(m.qs_king_to) << "\n";
    if (m.castling_rook != 'R')
      o << (v11 ? "castlingRookPiece = " : "castlingRookPieces = ") << lower(m.castling_rook) << "\n";
  }

  // Legality and the end.
  if (royal && !m.royal_safe)
    d.error(m.name_loc,
            who + " never lets a king be left attacked: the ruleset needs `legal { royal-safe }`");
  bool mate = false;
  for (const auto& e : m.end) {
    if (e.condition == "checkmate") {
      mate = true;
      if (e.result != "loss") o << "checkmateValue = " << e.result << "\n";
    } else if (e.condition == "stalemate") {
      if (e.result != "draw") o << "stalemateValue = " << e.result << "\n";
    } else if (e.condition == "insufficient-material") {
      o << "# insufficient-material -> draw: not a Fairy-Stockfish rule (arbiter's adapter applies the\n"
           "# classical dead positions when the king moves as a chess king)\n";
    }  // the other ends are constructs reported above
  }
  if (royal && !mate)
    d.error(m.name_loc, who + " ends a game by checkmate: the ruleset needs `end { checkmate -> loss }`");
  if (m.claim_repetition && *m.claim_repetition != 3) o << "nFoldRule = " << *m.claim_repetition << "\n";
  if (m.claim_fifty && *m.claim_fifty != 100) {
    if (*m.claim_fifty % 2) {
      d.error(m.name_loc, who + " counts the n-move rule in full moves: `fifty-move` must be even");
    } else {
      o << "nMoveRule = " << *m.claim_fifty / 2 << "\n";
    }
  }
  if (d.error_count() > errors_before) return std::nullopt;
  return o.str();
}

}  // namespace arb::lang
