// Reference engine for No Stress Chess, written from the rule text
// (shared/rules/no-stress-chess.txt), RULINGS.md sections 0 and 3 and the position text of
// engine/include/arbiter/nostress_text.hpp alone. It shares no move logic with lang/.
//
// The engine's state is exactly what the position text records (board, counters, the card
// zones with their unknown parts, the reshuffle seed, pending draws), so that position()
// and set_position() are inverse. Undo restores a saved copy of the whole state: the state
// is small and plainness is worth more here than speed.
//
// One Action is one complete turn (RULINGS 3.9), or one chance outcome:
//   Play(card, move)  the card played (P N B R Q K, A for Again) and the move it allows;
//   Pass(card)        a card whose kind allows no move is played: a lost turn;
//   Redraw            the hand is discarded and a new one drawn (levels 2, 3, advanced);
//   Draw(card)        a chance outcome (see nostress_text.hpp, "Chance nodes").
// When the card of the turn's draw is known, the draw is part of Play/Pass/Redraw.
//
// A designer's deck and hand (options `deck`, `hand-size`) are a CardRules: the deck's
// counts replace the 56 cards everywhere (the deal, the unknown pool and its chance
// weights, the text's checks) and the hand size the level's. The level keeps the rest: the
// advanced level's chess rules, the text's level field. RULINGS 3.4 makes the hand the only
// difference between levels 2 and 3; a hand of 0 is level 1's play (turn the top card and
// play it, no redraw) at any level, and a hand of 1 or more allows the redraw at level 1 too.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "arbiter/fen.hpp"
#include "arbiter/nostress_text.hpp"
#include "board.hpp"
#include "reference.hpp"
#include "seed_option.hpp"

namespace arb::ref {
namespace {

using namespace nostress;  // NOLINT: the engine is written in the board's own terms

class NoStressEngine final : public Engine {
 public:
  NoStressEngine(NoStressLevel level, bool advanced_pawns, uint64_t seed, const CardRules& rules,
                 bool deck_given)
      : level_(level),
        rules_(rules),
        hand_size_(rules.hand_at(level)),
        deck_given_(deck_given),
        advanced_pawns_(advanced_pawns),
        seed_(seed) {
    set_position("start");
  }

  std::string name() const override { return "reference:nostress"; }

  GameConfig config() const override {
    // deck and hand-size are named only when they were given, so No Stress Chess's own
    // configuration reads as before.
    GameConfig c{"nostress", {}};
    if (deck_given_) c.options.push_back({"deck", deck_option(rules_.deck)});
    if (rules_.hand_size >= 0) c.options.push_back({"hand-size", std::to_string(rules_.hand_size)});
    c.options.push_back({"level", nostress_level_name(level_)});
    c.options.push_back({"seed", std::to_string(seed_)});
    c.options.push_back({"setup-advanced-pawns", advanced_pawns_ ? "true" : "false"});
    return c;
  }

  void set_position(std::string_view text) override {
    NoStressPosition p;
    std::string_view t = text;
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
    if (t == "start") {
      p = nostress_start_position(level_, advanced_pawns_, seed_, rules_);
    } else if (t.substr(0, 6) == "start:") {
      std::string digits(t.substr(6));
      if (digits.empty() || digits.size() > 20 || !std::all_of(digits.begin(), digits.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
          }))
        throw PositionError("start:SEED needs a decimal seed", 6);
      uint64_t s = 0;
      try {
        s = std::stoull(digits);
      } catch (const std::exception&) {
        throw PositionError("start:SEED: the seed does not fit in 64 bits", 6);
      }
      p = nostress_start_position(level_, advanced_pawns_, s, rules_);
    } else {
      p = parse_nostress(text, rules_);
      if (p.level != level_) {
        size_t col = text.find("level:");
        throw PositionError("the position is for level " + nostress_level_name(p.level) +
                                " but this engine plays level " + nostress_level_name(level_),
                            col == std::string_view::npos ? 0 : col + 6);
      }
    }
    State s;
    for (int sq = 0; sq < 64; ++sq) s.board[sq] = p.board.at(to_coord(sq));
    s.side = p.board.side == Color::White ? kWhite : kBlack;
    for (char c : p.board.castling) {
      size_t k = std::string("KQkq").find(c);
      if (k != std::string::npos) s.castle[k] = true;
    }
    s.halfmove = p.board.halfmove;
    s.fullmove = p.board.fullmove;
    s.pile = p.pile;
    for (int c = 0; c < 2; ++c) {
      s.discard[c] = p.discard[c];
      s.hand[c] = p.hand[c];
    }
    s.has_seed = p.reshuffle_seed.has_value();
    s.seed = p.reshuffle_seed.value_or(0);
    s.pending = p.pending;
    // En passant: kept only when a pawn of the side to move could legally capture there.
    if (p.board.ep) {
      int ep = (p.board.ep->y - 1) * 8 + p.board.ep->x;
      if (ep_possible(s, ep)) s.ep = ep;
    }
    st_ = s;
    history_.clear();
    reps_.assign(1, rep_key(st_));
  }

  std::string position() const override {
    NoStressPosition p;
    p.board.width = 8;
    p.board.height = 8;
    p.board.cells.assign(64, 0);
    for (int sq = 0; sq < 64; ++sq) p.board.at(to_coord(sq)) = st_.board[sq];
    p.board.side = st_.side == kWhite ? Color::White : Color::Black;
    std::string cs;
    for (int k = 0; k < 4; ++k)
      if (st_.castle[k]) cs.push_back("KQkq"[k]);
    p.board.castling = cs.empty() ? "-" : cs;
    if (st_.ep >= 0) p.board.ep = to_coord(st_.ep);
    p.board.halfmove = st_.halfmove;
    p.board.fullmove = st_.fullmove;
    p.level = level_;
    p.pile = st_.pile;
    for (int c = 0; c < 2; ++c) {
      p.discard[c] = st_.discard[c];
      p.hand[c] = st_.hand[c];
    }
    if (st_.has_seed) p.reshuffle_seed = st_.seed;
    p.pending = st_.pending;
    return format_nostress(p);
  }

  void legal_actions(std::vector<Action>& out) override {
    out.clear();
    std::vector<Act> acts;
    actions_of(st_, acts);
    for (const Act& a : acts) out.push_back(encode(a));
  }

  void apply(const Action& action) override {
    Act a = decode(action);
    history_.push_back(Saved{st_, reps_.size()});
    int before = st_.side;
    try {
      apply_act(st_, a);
    } catch (...) {
      st_ = history_.back().state;
      history_.pop_back();
      throw;
    }
    if (st_.side != before) reps_.push_back(rep_key(st_));
  }

  void undo() override {
    if (history_.empty()) throw std::logic_error("reference:nostress: undo with no action applied");
    st_ = history_.back().state;
    reps_.resize(history_.back().reps);
    history_.pop_back();
  }

  Status status() override {
    Status out;
    Phase ph = phase(st_);
    if (advanced() && king_square(st_.board, st_.side) >= 0)
      out.in_check = attacked(st_.board, king_square(st_.board, st_.side), 1 - st_.side);
    if (ph == Phase::Over) {
      int winner;
      if (king_square(st_.board, st_.side) < 0) {
        out.end = Termination::RoyalCapture;
        out.reason = "royal-capture";
        winner = 1 - st_.side;
      } else if (out.in_check) {
        out.end = Termination::Checkmate;
        out.reason = "checkmate";
        winner = 1 - st_.side;
      } else {
        out.end = Termination::Stalemate;
        out.reason = "stalemate";
        winner = -1;
      }
      out.result = winner < 0 ? Result::Draw : winner == kWhite ? Result::WhiteWins : Result::BlackWins;
      return out;
    }
    // RULINGS 3.7: claims exist at the advanced level only; a chance node offers none.
    if (advanced() && !is_chance(ph)) {
      out.claim_fifty = st_.halfmove >= 100;
      out.claim_threefold = std::count(reps_.begin(), reps_.end(), reps_.back()) >= 3;
    }
    return out;
  }

  uint64_t hash() const override {
    // The repetition key plus every card field, mixed by FNV-1a over their text.
    std::string cards = st_.pile.known + "/" + std::to_string(st_.pile.unknown) + "/" + st_.discard[0] + "/" +
                        st_.discard[1] + "/" + st_.hand[0].known + "/" + std::to_string(st_.hand[0].unknown) +
                        "/" + st_.hand[1].known + "/" + std::to_string(st_.hand[1].unknown) + "/" +
                        (st_.has_seed ? std::to_string(st_.seed) : "-") + "/" + std::to_string(st_.pending);
    uint64_t h = 0xcbf29ce484222325ULL;
    for (char c : cards) {
      h ^= static_cast<uint8_t>(c);
      h *= 0x100000001b3ULL;
    }
    uint64_t mix = h;
    return rep_key(st_) ^ splitmix(mix);
  }

  Color side_to_move() const override { return st_.side == kWhite ? Color::White : Color::Black; }

  ActionInfo describe(const Action& action) const override {
    Act a = decode(action);
    Step s;
    switch (a.kind) {
      case kDraw:
        s.kind = StepKind::Chance;  // phase 0: the turn's draw (RULINGS 3.4)
        s.drawn = std::string(1, a.card);
        break;
      case kRedraw:
        s.kind = StepKind::Pass;  // phase 2: the redraw (RULINGS 3.4)
        s.label = "redraw";
        s.phase = 2;
        break;
      case kPass:
        s.kind = StepKind::Pass;  // phase 1: the card played, no move (RULINGS 3.9)
        s.card = a.card;
        s.phase = 1;
        break;
      case kPlay: {
        const Board& b = st_.board;
        char mover = b[a.move.from];
        if (!mover || color_of(mover) != st_.side)
          throw std::invalid_argument("reference:nostress: action does not move a piece of the side to move");
        s.kind = StepKind::Move;
        s.card = a.card;
        s.phase = 1;  // the card played with its move
        s.piece = upper(mover);
        s.from = to_coord(a.move.from);
        s.to = to_coord(a.move.to);
        s.promotion = a.move.promo;
        if (a.move.kind == kCastle) {
          bool king_side = file_of(a.move.to) > file_of(a.move.from);
          s.castle = king_side ? Castle::KingSide : Castle::QueenSide;
          s.king_to = to_coord(rank_of(a.move.from) * 8 + (king_side ? 6 : 2));
        } else if (a.move.kind == kEnPassant) {
          int victim = rank_of(a.move.from) * 8 + file_of(a.move.to);
          s.removed.push_back({to_coord(victim), b[victim]});
        } else if (b[a.move.to]) {
          s.removed.push_back({s.to, b[a.move.to]});
        }
        break;
      }
    }
    ActionInfo info;
    info.steps.push_back(s);
    return info;
  }

  bool chance() const override { return is_chance(phase(st_)); }

  void chance_outcomes(std::vector<ChanceOutcome>& out) override {
    out.clear();
    Phase ph = phase(st_);
    if (!is_chance(ph)) return;
    std::array<int, 7> pool = pool_after_reshuffle(st_, ph);
    int total = 0;
    for (int n : pool) total += n;
    for (size_t k = 0; k < pool.size(); ++k)
      if (pool[k] > 0)
        out.push_back({encode(Act{kDraw, kNoStressCardKinds[k], {}}), static_cast<double>(pool[k]) / total});
  }

  std::vector<std::string> hidden() const override {
    std::vector<std::string> out;
    if (st_.pile.unknown > 0) out.push_back("draw-pile");
    if (st_.hand[0].unknown > 0) out.push_back("white-hand");
    if (st_.hand[1].unknown > 0) out.push_back("black-hand");
    return out;
  }

  std::unique_ptr<Engine> clone() const override { return std::make_unique<NoStressEngine>(*this); }

 private:
  struct Saved {
    State state;
    size_t reps;
  };

  bool advanced() const { return level_ == NoStressLevel::Advanced; }
  // The redraw needs a hand (RULINGS 3.4): a hand of 0 is level 1's play, turn the top card
  // and play it, whatever the level says.
  bool can_redraw() const { return hand_size_ > 0; }
  static bool is_chance(Phase p) {
    return p == Phase::ChancePending || p == Phase::ChanceReveal || p == Phase::ChanceDraw;
  }

  // ----- Repetition key: board, side, castling rights, en passant (cards ignored).

  static uint64_t rep_key(const State& s) {
    const Zobrist& z = zobrist();
    uint64_t h = 0;
    for (int sq = 0; sq < 64; ++sq)
      if (s.board[sq]) h ^= z.piece[piece_index(s.board[sq])][sq];
    for (int k = 0; k < 4; ++k)
      if (s.castle[k]) h ^= z.castle[k];
    if (s.ep >= 0) h ^= z.ep_file[file_of(s.ep)];
    if (s.side == kBlack) h ^= z.black;
    return h;
  }

  // ----- Moves.

  // Whether `m` leaves the mover's king unattacked (advanced level only asks).
  static bool leaves_king_safe(const State& s, const Move& m) {
    Board b = s.board;
    play_on_board(b, m, s.side);
    int k = king_square(b, s.side);
    return k < 0 || !attacked(b, k, 1 - s.side);
  }

  void add_pawn_move(std::vector<Move>& out, int from, int to) const {
    if (advanced() && (rank_of(to) == 0 || rank_of(to) == 7)) {
      for (char p : {'Q', 'R', 'B', 'N'})
        out.push_back(Move{static_cast<uint8_t>(from), static_cast<uint8_t>(to), kNormal, p});
    } else {
      out.push_back(Move{static_cast<uint8_t>(from), static_cast<uint8_t>(to), kNormal, 0});
    }
  }

  // The moves of the side to move's pieces of kind `up` (P N B R Q K): pseudo-legal at
  // levels 1-3, legal (own king safe, or the enemy king captured) at the advanced level,
  // with castling, en passant and promotion there.
  void moves_of_kind(const State& s, char up, std::vector<Move>& out) const {
    const Board& b = s.board;
    const int us = s.side;
    std::vector<Move> ml;
    auto push = [&ml](int from, int to, uint8_t kind = kNormal) {
      ml.push_back(Move{static_cast<uint8_t>(from), static_cast<uint8_t>(to), kind, 0});
    };
    auto free_or_enemy = [&](int sq) { return sq >= 0 && (!b[sq] || color_of(b[sq]) != us); };
    for (int from = 0; from < 64; ++from) {
      char p = b[from];
      if (!p || color_of(p) != us || upper(p) != up) continue;
      switch (up) {
        case 'P': {
          int one = offset(from, 0, forward(us));
          if (one < 0) break;  // a pawn on the far rank (levels 1-3) stays there
          if (!b[one]) {
            add_pawn_move(ml, from, one);
            int two = offset(one, 0, forward(us));
            if (rank_of(from) == (us == kWhite ? 1 : 6) && two >= 0 && !b[two]) push(from, two, kDouble);
          }
          for (int df : {-1, 1}) {
            int to = offset(from, df, forward(us));
            if (to < 0) continue;
            if (b[to] && color_of(b[to]) != us)
              add_pawn_move(ml, from, to);
            else if (advanced() && to == s.ep)
              push(from, to, kEnPassant);
          }
          break;
        }
        case 'N':
          for (const auto& d : kKnight)
            if (int to = offset(from, d[0], d[1]); free_or_enemy(to)) push(from, to);
          break;
        case 'K':
          for (const auto& d : kKingDirs)
            if (int to = offset(from, d[0], d[1]); free_or_enemy(to)) push(from, to);
          if (advanced()) add_castling(s, from, ml);
          break;
        default: {
          auto ray = [&](const int(*dirs)[2], int n) {
            for (int i = 0; i < n; ++i)
              for (int to = offset(from, dirs[i][0], dirs[i][1]); to >= 0;
                   to = offset(to, dirs[i][0], dirs[i][1])) {
                if (!b[to]) {
                  push(from, to);
                  continue;
                }
                if (color_of(b[to]) != us) push(from, to);
                break;
              }
          };
          if (up == 'R' || up == 'Q') ray(kRookDirs, 4);
          if (up == 'B' || up == 'Q') ray(kBishopDirs, 4);
          break;
        }
      }
    }
    // RULINGS 3.7: a move that captures the enemy king wins at once, so it is legal even
    // when it leaves the own king attacked (a piece pinned to its own king may take it).
    for (const Move& m : ml)
      if (!advanced() || b[m.to] == piece_of(1 - us, 'K') || leaves_king_safe(s, m)) out.push_back(m);
  }

  // Castling (advanced): the right is held, king on e and rook on its corner (the text
  // guarantees both while the right is held), the squares between them empty, and the
  // king's square, the square it crosses and its destination not attacked.
  void add_castling(const State& s, int king, std::vector<Move>& ml) const {
    const Board& b = s.board;
    const int us = s.side;
    const int r = us == kWhite ? 0 : 7;
    if (king != r * 8 + 4) return;
    for (bool king_side : {true, false}) {
      if (!s.castle[castle_index(us, king_side)]) continue;
      int rook = r * 8 + (king_side ? 7 : 0);
      if (b[rook] != piece_of(us, 'R')) continue;
      bool clear = true;
      for (int f = std::min(4, file_of(rook)) + 1; f < std::max(4, file_of(rook)); ++f)
        if (b[r * 8 + f]) clear = false;
      if (!clear) continue;
      bool safe = true;
      for (int f : {4, king_side ? 5 : 3, king_side ? 6 : 2})
        if (attacked(b, r * 8 + f, 1 - us)) safe = false;
      if (safe) ml.push_back(Move{static_cast<uint8_t>(king), static_cast<uint8_t>(rook), kCastle, 0});
    }
  }

  // Whether a pawn of the side to move could legally capture en passant onto `ep` (chess
  // rules, cards ignored), with the advanced pawn in front of it.
  bool ep_possible(const State& s, int ep) const {
    if (!advanced()) return false;
    const int us = s.side, them = 1 - us;
    if (rank_of(ep) != (us == kWhite ? 5 : 2) || s.board[ep]) return false;
    int pawn = offset(ep, 0, forward(them));
    int origin = offset(ep, 0, -forward(them));
    if (s.board[pawn] != piece_of(them, 'P') || s.board[origin]) return false;
    for (int df : {-1, 1}) {
      int from = offset(pawn, df, 0);
      if (from < 0 || s.board[from] != piece_of(us, 'P')) continue;
      if (leaves_king_safe(s, Move{static_cast<uint8_t>(from), static_cast<uint8_t>(ep), kEnPassant, 0}))
        return true;
    }
    return false;
  }

  // Whether the side to move has any move at all (advanced: any legal move).
  bool any_move(const State& s) const {
    std::vector<Move> ml;
    for (char up : {'P', 'N', 'B', 'R', 'Q', 'K'}) {
      moves_of_kind(s, up, ml);
      if (!ml.empty()) return true;
    }
    return false;
  }

  // ----- Cards.

  // The kinds an Again card names (RULINGS 3.5): the most recent piece card on the own
  // discard pile (the Again card is not on it yet) and on the opponent's; 0 for none.
  static std::array<char, 2> again_kinds(const State& s) {
    std::array<char, 2> out{0, 0};
    for (int i = 0; i < 2; ++i) {
      const std::string& pile = s.discard[i == 0 ? s.side : 1 - s.side];
      for (auto it = pile.rbegin(); it != pile.rend(); ++it)
        if (*it != 'A') {
          out[i] = *it;
          break;
        }
    }
    return out;
  }

  // Reshuffle (RULINGS 3.8): the pile is empty; White's discard pile then Black's, bottom
  // to top, become the pile, shuffled by the seed when the position has one, unknown
  // otherwise.
  static void reshuffle(State& s) {
    std::string cards = s.discard[kWhite] + s.discard[kBlack];
    s.discard[kWhite].clear();
    s.discard[kBlack].clear();
    if (s.has_seed) {
      s.pile.known = shuffle_cards(cards, s.seed);
      s.pile.unknown = 0;
      ++s.seed;
    } else {
      s.pile.known.clear();
      s.pile.unknown = static_cast<int>(cards.size());
    }
  }

  // Draws one card into the hand of the side to move when its identity is known
  // (reshuffling first when the pile is empty). False when the top card is unknown.
  static bool draw_known(State& s) {
    if (s.pile.size() == 0) reshuffle(s);
    if (s.pile.known.empty()) return false;
    NoStressCards& h = s.hand[s.side];
    if (h.unknown > 0) throw std::logic_error("reference:nostress: drawing into a hand with unknown cards");
    h.known.push_back(s.pile.known.front());
    s.pile.known.erase(0, 1);
    return true;
  }

  // Ends the turn of the side to move: counters, side, en passant.
  void end_turn(State& s, bool reset_clock, int ep_candidate) const {
    s.halfmove = reset_clock ? 0 : std::min(s.halfmove, INT32_MAX - 1) + 1;
    if (s.side == kBlack && s.fullmove < INT32_MAX) ++s.fullmove;
    s.side = 1 - s.side;
    s.ep = -1;
    if (ep_candidate >= 0 && ep_possible(s, ep_candidate)) s.ep = ep_candidate;
  }

  // Makes the pending draws of a redraw as far as their cards are known; ends the turn
  // when they are all made.
  void finish_redraw(State& s) const {
    while (s.pending > 0 && draw_known(s)) --s.pending;
    if (s.pending == 0) end_turn(s, false, -1);
  }

  // The unknown pool: the deck minus every known card (counts in PNBRQKA order).
  std::array<int, 7> pool_of(const State& s) const {
    std::array<int, 7> pool = rules_.deck;
    auto remove = [&pool](const std::string& cards) {
      for (char c : cards) --pool[nostress_card_index(c)];
    };
    remove(s.pile.known);
    remove(s.discard[0]);
    remove(s.discard[1]);
    remove(s.hand[0].known);
    remove(s.hand[1].known);
    return pool;
  }

  std::array<int, 7> pool_after_reshuffle(const State& s, Phase ph) const {
    if (ph == Phase::ChanceDraw && s.pile.size() == 0) {
      State t = s;
      reshuffle(t);
      return pool_of(t);
    }
    return pool_of(s);
  }

  // ----- Phases and actions.

  Phase phase(const State& s) const {
    if (s.pending > 0) return Phase::ChancePending;
    if (king_square(s.board, s.side) < 0) return Phase::Over;
    // RULINGS 3.7: checkmate and stalemate are judged at the start of a turn, before the
    // draw, whatever the cards.
    if (advanced() && !any_move(s)) return Phase::Over;
    if (s.hand[s.side].unknown > 0) return Phase::ChanceReveal;
    if (s.hand[s.side].size() == hand_size_) {
      if (!s.pile.known.empty() || (s.pile.size() == 0 && s.has_seed)) return Phase::DrawThenAct;
      return Phase::ChanceDraw;
    }
    return Phase::Act;
  }

  void actions_of(const State& s, std::vector<Act>& out) const {
    out.clear();
    Phase ph = phase(s);
    switch (ph) {
      case Phase::Over:
        return;
      case Phase::ChancePending:
      case Phase::ChanceReveal:
      case Phase::ChanceDraw: {
        std::array<int, 7> pool = pool_after_reshuffle(s, ph);
        for (size_t k = 0; k < pool.size(); ++k)
          if (pool[k] > 0) out.push_back(Act{kDraw, kNoStressCardKinds[k], {}});
        return;
      }
      case Phase::DrawThenAct: {
        State t = s;
        draw_known(t);
        decisions(t, out);
        return;
      }
      case Phase::Act:
        decisions(s, out);
        return;
    }
  }

  // The choices of a player holding the turn's card(s) (RULINGS 3.3-3.7, 3.9).
  void decisions(const State& s, std::vector<Act>& out) const {
    const std::string& hand = s.hand[s.side].known;
    std::string kinds;  // distinct card kinds, in hand order
    for (char c : hand)
      if (kinds.find(c) == std::string::npos) kinds.push_back(c);
    std::vector<Act> moves, passes;
    std::vector<Move> ml;
    for (char card : kinds) {
      ml.clear();
      if (card == 'A') {
        std::array<char, 2> named = again_kinds(s);
        if (named[0]) moves_of_kind(s, named[0], ml);
        // A move both named kinds reach is one action: with two different kinds no move can
        // be reached by both (a move starts from one piece of one kind).
        if (named[1] && named[1] != named[0]) moves_of_kind(s, named[1], ml);
      } else {
        moves_of_kind(s, card, ml);
      }
      if (ml.empty()) passes.push_back(Act{kPass, card, {}});
      for (const Move& m : ml) moves.push_back(Act{kPlay, card, m});
    }
    bool in_check = false;
    if (advanced()) {
      int k = king_square(s.board, s.side);
      in_check = k >= 0 && attacked(s.board, k, 1 - s.side);
    }
    out = moves;
    // In check with a card that allows an escape, only escaping moves are legal
    // (RULINGS 3.7); every legal move of a player in check is an escape.
    if (in_check && !moves.empty()) return;
    out.insert(out.end(), passes.begin(), passes.end());
    if (can_redraw()) {
      bool three_alike = false;
      for (char c : kinds)
        if (std::count(hand.begin(), hand.end(), c) >= 3) three_alike = true;
      if (three_alike || moves.empty()) out.push_back(Act{kRedraw, 0, {}});
    }
  }

  void apply_act(State& s, const Act& a) const {
    Phase ph = phase(s);
    if (ph == Phase::Over) throw std::logic_error("reference:nostress: the game is over");
    if (a.kind == kDraw) {
      if (!is_chance(ph))
        throw std::logic_error("reference:nostress: a draw outcome where no chance node is");
      std::array<int, 7> pool = pool_after_reshuffle(s, ph);
      if (pool[nostress_card_index(a.card)] <= 0)
        throw std::logic_error(std::string("reference:nostress: no unknown ") + a.card + " card is left");
      NoStressCards& h = s.hand[s.side];
      if (ph == Phase::ChanceReveal) {
        --h.unknown;
        h.known.push_back(a.card);
        return;
      }
      if (s.pile.size() == 0) reshuffle(s);
      --s.pile.unknown;
      h.known.push_back(a.card);
      if (ph == Phase::ChancePending) {
        --s.pending;
        finish_redraw(s);
      }
      return;
    }
    if (is_chance(ph)) throw std::logic_error("reference:nostress: a chance node needs a draw outcome");
    if (ph == Phase::DrawThenAct) draw_known(s);
    NoStressCards& h = s.hand[s.side];
    if (a.kind == kRedraw) {
      if (!can_redraw()) throw std::logic_error("reference:nostress: no redraw without a hand");
      s.discard[s.side] += h.known;
      h.known.clear();
      s.pending = hand_size_;
      finish_redraw(s);
      return;
    }
    size_t at = h.known.find(a.card);
    if (at == std::string::npos)
      throw std::logic_error(std::string("reference:nostress: no ") + a.card + " card in the hand");
    h.known.erase(at, 1);
    s.discard[s.side].push_back(a.card);
    if (a.kind == kPass) {
      end_turn(s, false, -1);
      return;
    }
    const Move& m = a.move;
    const int us = s.side;
    char mover = s.board[m.from];
    if (!mover || color_of(mover) != us)
      throw std::logic_error("reference:nostress: action does not move a piece of the side to move");
    auto [captured, cap_sq] = play_on_board(s.board, m, us);
    (void)cap_sq;
    if (advanced()) {
      // A right goes when its king or rook leaves its square or is captured there. The
      // king's start square counts too: a king captured on e1/e8 (after a lost turn in
      // check, RULINGS 3.7) takes both rights with it, else the printed castling field
      // would name a king that is gone and the text would not read back.
      if (upper(mover) == 'K') s.castle[castle_index(us, true)] = s.castle[castle_index(us, false)] = false;
      for (int sq : {static_cast<int>(m.from), static_cast<int>(m.to)}) {
        if (sq == 4) s.castle[0] = s.castle[1] = false;
        if (sq == 60) s.castle[2] = s.castle[3] = false;
        if (sq == 7) s.castle[0] = false;
        if (sq == 0) s.castle[1] = false;
        if (sq == 63) s.castle[2] = false;
        if (sq == 56) s.castle[3] = false;
      }
    }
    int ep_candidate = m.kind == kDouble ? offset(m.from, 0, forward(us)) : -1;
    end_turn(s, upper(mover) == 'P' || captured != 0, ep_candidate);
  }

  NoStressLevel level_;
  CardRules rules_;
  int hand_size_;    // the hand between turns: rules_'s, else the level's
  bool deck_given_;  // the `deck` option was given (config() names it)
  bool advanced_pawns_;
  uint64_t seed_;
  State st_;
  std::vector<Saved> history_;
  // Repetition keys of the positions at the start of each turn since set_position.
  std::vector<uint64_t> reps_;
};

}  // namespace

std::unique_ptr<Engine> make_nostress_engine(const std::map<std::string, std::string>& options) {
  NoStressLevel level = NoStressLevel::Three;
  bool advanced_pawns = true;
  uint64_t seed = 1;
  CardRules rules;
  bool deck_given = false;
  for (const auto& [key, value] : options) {
    if (key == "deck") {
      rules.deck = parse_deck_option(value);
      deck_given = true;
    } else if (key == "hand-size") {
      if (value.empty() || value.size() > 1 || value[0] < '0' || value[0] > '8')
        throw std::invalid_argument("nostress: option hand-size must be 0..8, not '" + value + "'");
      rules.hand_size = value[0] - '0';
    } else if (key == "level") {
      auto l = parse_nostress_level(value);
      if (!l)
        throw std::invalid_argument("nostress: option level must be 1, 2, 3 or advanced, not '" + value +
                                    "'");
      level = *l;
    } else if (key == "setup-advanced-pawns") {
      if (value != "true" && value != "false")
        throw std::invalid_argument("nostress: option setup-advanced-pawns must be true or false, not '" +
                                    value + "'");
      advanced_pawns = value == "true";
    } else if (key == "seed") {
      seed = seed_option("nostress", value);
    } else {
      throw std::invalid_argument("nostress: unknown option '" + key +
                                  "' (the options are deck, hand-size, level, seed, setup-advanced-pawns)");
    }
  }
  try {
    rules.validate(level);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("nostress: options deck and hand-size: ") + e.what());
  }
  return std::make_unique<NoStressEngine>(level, advanced_pawns, seed, rules, deck_given);
}

}  // namespace arb::ref
