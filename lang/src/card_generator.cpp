// The card layer: card-driven turns over the compiled bitboard generator (RULINGS 3.3-3.9).
//
// The generator moves the pieces; this layer holds the shared draw pile, the discard piles
// and the hands, and runs the turn: draw a card, then play one and move a piece of its type
// (restricted through CardBoard::set_move_types), lose the turn with a card that allows no
// move, or redraw. Again cards name the newest piece card of either discard pile. The
// position text, the draws' timing and the chance nodes are those of
// arbiter/nostress_text.hpp: a draw whose card the position fixes is part of the action;
// one it does not fix (an unknown pile, an unseeded reshuffle, an unknown hand, a redraw
// waiting for its cards) is a chance node with weighted outcomes.
#include <algorithm>
#include <array>

#include "arbiter/fen.hpp"
#include "arbiter/nostress_text.hpp"
#include "arbiter/numbers.hpp"
#include "backends.hpp"
#include "card_board.hpp"

namespace arb::lang {

namespace {

constexpr int kKinds = 7;  // P N B R Q K A, the text's order (kNoStressCardKinds)
constexpr int kAgain = 6;  // index of the Again card

// The card zones. The pile's known part is stored bottom first (its top is the last
// card), so that a draw is a pop.
// kMaxCards: the most cards of the deck, kHand: the most cards a hand holds (H + 1). Two
// sizes are instantiated (make_card_engine): the zones are copied per action, so a deck the
// size of No Stress Chess's runs with the small ones.
template <int kMaxCards, int kHand>
struct CardZones {
  std::array<char, kMaxCards> pile{};
  uint8_t pile_n = 0, pile_unknown = 0;
  std::array<std::array<char, kMaxCards>, 2> disc{};  // bottom to top
  std::array<uint8_t, 2> disc_n{};
  std::array<std::array<char, kHand>, 2> hand{};  // hand order, oldest first (ordered cards)
  std::array<uint8_t, 2> hand_n{}, hand_unknown{};
  // Merged chance (set_merged_chance): cards drawn as one multiset whose arrival order is
  // still open sit in hand order between hand[0, uno_at) and hand[uno_at, hand_n): uno
  // counts them by kind, gone counts the copies of that draw played since (each the first
  // copy of its kind, which is what makes the open order non-uniform; a kind with no
  // copy left forgets its played ones, see settle()).
  std::array<std::array<uint8_t, 7>, 2> uno{}, gone{};
  std::array<uint8_t, 2> uno_at{};
  bool ordering = false;  // the side to move redraws: the open order is drawn first
  bool has_seed = false;
  uint64_t seed = 0;
  uint8_t pending = 0;
};

// Action layout: lo bits 0-31 the generator's move, 32-39 the card's kind index, 40-43
// what the action is.
// kDrawSet (merged chance): bits 0-27 the drawn multiset, four bits per kind; kOrder: bits
// 0-26 the open cards' order, three bits per card (kind index + 1, oldest first).
// The turn's phases in the order card_compile.cpp requires them (Step::phase): the draw,
// the card played (its move or a lost turn), the optional redraw.
constexpr uint8_t kPhasePlay = 1, kPhaseRedraw = 2;

enum ActKind : uint64_t { kPlay = 0, kPass = 1, kRedraw = 2, kDraw = 3, kDrawSet = 4, kOrder = 5 };
Action make_action(ActKind k, int card, uint64_t move = 0) {
  return Action{move | (uint64_t(card) << 32) | (uint64_t(k) << 40), 0};
}
ActKind act_kind(const Action& a) {
  return static_cast<ActKind>((a.lo >> 40) & 15);
}
int act_card(const Action& a) {
  return static_cast<int>((a.lo >> 32) & 255);
}

template <int kMaxCards, int kHand>
class CardEngine final : public Engine, public ChanceControl {
  using Cards = CardZones<kMaxCards, kHand>;

 public:
  explicit CardEngine(std::shared_ptr<const Program> p) : p_(std::move(p)), c_(*p_->cards) {
    // The board program: the same pieces and rules, one move per turn, no card layer.
    auto inner = std::make_shared<Program>(*p_);
    inner->cards.reset();
    inner->turn = {PhaseProgram{PhaseKind::Action, false, -1}};
    inner->action_move = true;
    inner->action_place = false;
    inner->start_text = c_.board;
    board_ = make_bitboard_engine(inner);
    hook_ = dynamic_cast<CardBoard*>(board_.get());
    if (!hook_) throw std::logic_error("the card layer needs the bitboard generator");
    level_ = *parse_nostress_level(c_.level);  // derived by card_compile.cpp
    H_ = c_.hand_size;
    for (int k = 0; k < kKinds; ++k) {
      type_[k] = -1;
      if (k == kAgain) continue;
      size_t t = p_->letters.find(kNoStressCardKinds[k]);
      if (t != std::string::npos) type_[k] = static_cast<int>(t);
    }
    start(c_.seed);
  }
  CardEngine(const CardEngine& o)
      : p_(o.p_),
        c_(o.c_),
        board_(o.board_->clone()),
        hook_(dynamic_cast<CardBoard*>(board_.get())),
        level_(o.level_),
        H_(o.H_),
        type_(o.type_),
        cs_(o.cs_),
        stack_(o.stack_),
        merged_(o.merged_) {}

  std::string name() const override { return "compiled:" + p_->variant; }
  GameConfig config() const override { return GameConfig{p_->variant, p_->options}; }

  // ---- position text ----------------------------------------------------------------
  void set_position(std::string_view text) override {
    if (text == "start") return start(c_.seed);
    if (text.substr(0, 6) == "start:") {
      // Every 64-bit seed, as the reference and --seed take them.
      auto n = parse_unsigned(text.substr(6), 0, UINT64_MAX);
      if (!n) throw PositionError("`start:SEED` needs a whole number from 0 to 18446744073709551615", 6);
      return start(*n);
    }
    Open open;
    std::string plain = strip_open(text, open);
    NoStressPosition np;
    try {
      np = parse_nostress(plain, c_.rules);
    } catch (const PositionError&) {
      // A text of another game's level is named as such, before what its cards break.
      check_level_field(plain);
      throw;
    }
    if (np.level != level_)
      throw PositionError("this game's positions are written `level:" + nostress_level_name(level_) +
                              "`, not `level:" + nostress_level_name(np.level) + "`",
                          text.find("level:") == std::string_view::npos ? 0 : text.find("level:"));
    load(np);
    load_open(open);
  }

  // The seventh field `level:L` of a text whose L is not this game's: a PositionError at it.
  void check_level_field(std::string_view text) const {
    size_t at = 0;
    for (int field = 0; field < 7; ++field) {
      while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
      if (field == 6) break;
      while (at < text.size() && text[at] != ' ' && text[at] != '\t') ++at;
    }
    if (text.substr(at, 6) != "level:") return;
    size_t end = at + 6;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t') ++end;
    auto lv = parse_nostress_level(text.substr(at + 6, end - at - 6));
    if (lv && *lv != level_)
      throw PositionError("this game's positions are written `level:" + nostress_level_name(level_) +
                              "`, not `level:" + nostress_level_name(*lv) + "`",
                          at);
  }

  std::string position() const override {
    NoStressPosition np;
    np.board = parse_fen(board_->position(), 8, 8, "KQRBNPkqrbnp");
    np.level = level_;
    for (int i = cs_.pile_n - 1; i >= 0; --i) np.pile.known.push_back(cs_.pile[i]);
    np.pile.unknown = cs_.pile_unknown;
    for (int c = 0; c < 2; ++c) {
      np.discard[c].assign(cs_.disc[c].data(), cs_.disc_n[c]);
      np.hand[c].known.assign(cs_.hand[c].data(), cs_.hand_n[c]);
      np.hand[c].unknown = cs_.hand_unknown[c];
    }
    if (cs_.has_seed) np.reshuffle_seed = cs_.seed;
    np.pending = cs_.pending;
    std::string t = format_nostress(np);
    // The open order (nostress_text.hpp, "Merged chance"): `[UNO/GONE]` inside the hand.
    for (int c = 0; c < 2; ++c) {
      if (uno_total(cs_, c) == 0) continue;
      const std::string key = c == 0 ? " whand:" : " bhand:";
      size_t at = t.find(key) + key.size();
      if (cs_.hand_n[c] == 0 && t.compare(at, 1, "-") == 0) t.erase(at, 1);
      std::string mark = "[" + letters(cs_.uno[c]);
      if (letters(cs_.gone[c]).size()) mark += "/" + letters(cs_.gone[c]);
      t.insert(at + cs_.uno_at[c], mark + "]");
    }
    if (cs_.ordering) t += " redrawing";
    return t;
  }

  // ---- actions ----------------------------------------------------------------------
  void legal_actions(std::vector<Action>& out) override {
    out.clear();
    if (!hook_->has_royal(side())) return;
    if (card_chance()) {
      if (decided()) return;
      std::vector<ChanceOutcome> o;
      chance_outcomes(o);
      for (const auto& x : o) out.push_back(x.action);
      return;
    }
    enumerate(&out);
  }

  // The legal actions, and the moves each card in hand allows by movement alone where the
  // level tests royal safety (RULINGS 3.7: a pinned piece's move, a king's step into
  // check), so that the record validator can say why such a move is refused.
  void pseudo_legal_actions(std::vector<Action>& out) override {
    legal_actions(out);
    if (!p_->royal_safe || card_chance() || !hook_->has_royal(side())) return;
    const int P = side();
    const Cards s = acting(P);
    const std::array<int, kKinds> count = kinds_in_hand(s, P);
    for (int k = 0; k < kKinds; ++k) {
      const uint32_t mask = !count[k]     ? 0u
                            : k == kAgain ? again_mask(s, P)
                                          : (type_[k] >= 0 ? 1u << type_[k] : 0u);
      if (!mask) continue;
      hook_->set_move_types(mask);
      moves_.clear();
      hook_->list_pseudo_moves(moves_);
      for (const Action& m : moves_) {
        const Action a = make_action(kPlay, k, m.lo);
        if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
      }
    }
    hook_->set_move_types(CardBoard::kAllTypes);
  }

  void apply(const Action& a) override {
    stack_.push_back(Frame{cs_, false});
    const int P = side();
    if (act_kind(a) == kDraw) {
      apply_draw(act_card(a), P);
      return;
    }
    if (act_kind(a) == kDrawSet) {
      apply_draw_set(a, P);
      return;
    }
    if (act_kind(a) == kOrder) {
      // The open cards' order, drawn: the hand is ordered again and the redraw goes on.
      Cards s = cs_;
      linearize(s, P, order_of(a));
      s.ordering = false;
      redraw(s, P);
      return;
    }
    Cards s = acting(P);
    if (act_kind(a) == kRedraw) {
      if (uno_total(s, P) > 0) {
        // The discard pile shows the hand's order: it is drawn first (a chance node).
        s.ordering = true;
        cs_ = s;
        return;
      }
      redraw(s, P);
      return;
    }
    // Play the first copy of the card's kind (hand order) onto the own discard pile.
    const char card = kNoStressCardKinds[act_card(a)];
    remove_first(s, P, card);
    s.disc[P][s.disc_n[P]++] = card;
    cs_ = s;
    if (act_kind(a) == kPlay) {
      board_->apply(Action{a.lo & 0xFFFFFFFFu, 0});
      stack_.back().board_moved = true;
    } else {
      end_turn_without_move();
    }
  }

  void undo() override {
    if (stack_.empty()) return;
    Frame f = stack_.back();
    stack_.pop_back();
    cs_ = f.before;
    if (f.board_moved) board_->undo();
  }

  ActionInfo describe(const Action& a) const override {
    Step s;
    const char card = kNoStressCardKinds[act_card(a)];
    switch (act_kind(a)) {
      case kPlay: {
        ActionInfo info = board_->describe(Action{a.lo & 0xFFFFFFFFu, 0});
        for (Step& st : info.steps) {
          st.card = card;
          st.phase = kPhasePlay;
        }
        return info;
      }
      case kPass:
        s.kind = StepKind::Pass;
        s.card = card;
        s.phase = kPhasePlay;
        break;
      case kRedraw:
        s.kind = StepKind::Pass;
        s.label = "redraw";
        s.phase = kPhaseRedraw;
        break;
      case kDraw:
        s.kind = StepKind::Chance;
        s.drawn = std::string(1, card);
        break;
      case kDrawSet:
        s.kind = StepKind::Chance;
        s.drawn = letters(set_of(a));
        break;
      case kOrder:
        s.kind = StepKind::Chance;
        s.drawn = "order:" + order_of(a);
        break;
    }
    return ActionInfo{{s}};
  }

  // ---- status -----------------------------------------------------------------------
  Status status() override {
    Status st;
    const int P = side();
    if (!hook_->has_royal(P)) {
      st.result = P == 0 ? Result::BlackWins : Result::WhiteWins;
      st.end = Termination::RoyalCapture;
      st.reason = "royal-capture";
      return st;
    }
    hook_->set_move_types(CardBoard::kAllTypes);
    Status b = board_->status();
    // Claims are made by the player to act: none at a chance node (check is shown there).
    const bool open = card_chance();
    st.claim_fifty = b.claim_fifty && !open;
    st.claim_threefold = b.claim_threefold && !open;
    if (p_->royal_safe) {
      // RULINGS 3.7: check, checkmate and stalemate at the advanced level, judged at the
      // start of the turn whatever the cards.
      st.in_check = b.in_check;
      if (b.end == Termination::Checkmate || b.end == Termination::Stalemate) {
        st.result = b.result;
        st.end = b.end;
        st.reason = b.reason;
        st.claim_fifty = st.claim_threefold = false;  // a decided game has nothing to claim
      }
    }
    return st;
  }

  uint64_t hash() const override {
    // The board's key (which repetition claims compare) mixed with the card zones.
    uint64_t h = 1469598103934665603ull;
    auto mix = [&h](uint64_t v) {
      h ^= v;
      h *= 1099511628211ull;
    };
    for (int i = 0; i < cs_.pile_n; ++i) mix(static_cast<uint64_t>(cs_.pile[i]));
    mix(0x100 | cs_.pile_unknown);
    for (int c = 0; c < 2; ++c) {
      for (int i = 0; i < cs_.disc_n[c]; ++i) mix(static_cast<uint64_t>(cs_.disc[c][i]));
      mix(0x200 | cs_.disc_n[c]);
      for (int i = 0; i < cs_.hand_n[c]; ++i) mix(static_cast<uint64_t>(cs_.hand[c][i]));
      mix(0x300 | cs_.hand_n[c]);
      mix(0x400 | cs_.hand_unknown[c]);
      for (int k = 0; k < kKinds; ++k) mix(0x700 | cs_.uno[c][k] | (cs_.gone[c][k] << 4));
      mix(0x800 | cs_.uno_at[c]);
    }
    mix(0x900 | cs_.ordering);
    mix(cs_.has_seed ? cs_.seed : 0x500);
    mix(cs_.has_seed);
    mix(0x600 | cs_.pending);
    return board_->hash() ^ (h * 0x9E3779B97F4A7C15ull);
  }
  Color side_to_move() const override { return board_->side_to_move(); }
  std::unique_ptr<Engine> clone() const override { return std::make_unique<CardEngine>(*this); }

  // ---- chance and hidden information ------------------------------------------------
  bool chance() const override { return card_chance() && !decided_now(); }
  // Whether the cards leave the next draw open (the position may still be decided).
  bool card_chance() const {
    const int P = side();
    if (cs_.ordering) return true;
    if (cs_.pending > 0) return true;
    if (cs_.hand_unknown[P] > 0) return true;
    if (held(cs_, P) == H_ && cs_.pile_n == 0 && (cs_.pile_unknown > 0 || !cs_.has_seed)) return true;
    return false;
  }

  void chance_outcomes(std::vector<ChanceOutcome>& out) override {
    out.clear();
    if (!chance()) return;
    Cards s = cs_;
    const int P = side();
    if (s.ordering) {
      std::vector<std::pair<std::string, double>> orders;
      open_orders(s, P, orders);
      for (const auto& [order, w] : orders) {
        uint64_t code = 0;
        for (size_t i = 0; i < order.size(); ++i)
          code |= uint64_t(nostress_card_index(order[i]) + 1) << (3 * i);
        out.push_back(ChanceOutcome{make_action(kOrder, 0, code), w});
      }
      return;
    }
    if (int m = merged_count(s, P)) {
      // One node for m draws: the multisets of m cards, multivariate hypergeometric.
      std::array<int, kKinds> pool = unknown_pool(s), take{};
      int total = 0;
      for (int n : pool) total += n;
      draw_sets(pool, take, 0, m, 1.0 / choose(total, m), out);
      return;
    }
    if (s.pending == 0 && s.hand_unknown[P] == 0 && s.pile_n == 0 && s.pile_unknown == 0)
      reshuffle_unseeded(s);
    std::array<int, kKinds> pool = unknown_pool(s);
    int total = 0;
    for (int n : pool) total += n;
    for (int k = 0; k < kKinds; ++k)
      if (pool[k] > 0)
        out.push_back(ChanceOutcome{make_action(kDraw, k), static_cast<double>(pool[k]) / total});
  }

  std::vector<std::string> hidden() const override {
    std::vector<std::string> h;
    if (cs_.pile_unknown > 0) h.push_back("draw-pile");
    if (cs_.hand_unknown[0] > 0) h.push_back("white-hand");
    if (cs_.hand_unknown[1] > 0) h.push_back("black-hand");
    return h;
  }

  ChanceControl* chance_control() override { return this; }
  void set_merged_chance(bool on) override { merged_ = on; }
  void set_deferred_draws(bool on) override { defer_ = on; }

  // ---- perft ------------------------------------------------------------------------
  uint64_t perft(int depth) override {
    if (depth <= 0) return 1;
    if (!hook_->has_royal(side())) return 0;
    if (card_chance()) {
      if (decided()) return 0;
      throw ChanceError("perft met a chance node (the draw is not fixed by the position): " + position());
    }
    // enumerate() finds checkmate and stalemate itself (no action at all).
    if (depth == 1) return enumerate(nullptr);
    if (static_cast<int>(buffers_.size()) <= depth) buffers_.resize(depth + 1);
    buffers_[depth].clear();
    enumerate(&buffers_[depth]);
    uint64_t n = 0;
    for (size_t i = 0; i < buffers_[depth].size(); ++i) {
      apply(buffers_[depth][i]);
      n += perft(depth - 1);
      undo();
    }
    return n;
  }

 private:
  struct Frame {
    Cards before;
    bool board_moved;
  };

  std::shared_ptr<const Program> p_;
  const CardProgram& c_;
  std::unique_ptr<Engine> board_;
  CardBoard* hook_ = nullptr;
  NoStressLevel level_ = NoStressLevel::Three;
  int H_ = 0;
  std::array<int, kKinds> type_{};  // the piece type each card moves (-1 for Again)
  Cards cs_;
  std::vector<Frame> stack_;
  std::vector<std::vector<Action>> buffers_;  // perft's action lists, one per depth
  std::vector<Action> moves_;                 // enumerate's move list
  bool merged_ = false;                       // set_merged_chance
  bool defer_ = false;                        // set_deferred_draws

  int side() const { return board_->side_to_move() == Color::White ? 0 : 1; }

  void start(uint64_t seed) {
    std::string deck = shuffle_cards(nostress_deck(c_.rules), seed);
    NoStressPosition np;
    np.board = parse_fen(c_.board, 8, 8, "KQRBNPkqrbnp");
    np.level = level_;
    const size_t dealt = static_cast<size_t>(2 * H_);
    for (size_t i = 0; i < dealt; ++i) np.hand[i % 2].known.push_back(deck[i]);
    np.pile.known = deck.substr(dealt);
    np.reshuffle_seed = seed + 1;
    load(np);
  }

  void load(const NoStressPosition& np) {
    board_->set_position(format_fen(np.board));
    Cards s;
    s.pile_n = static_cast<uint8_t>(np.pile.known.size());
    for (size_t i = 0; i < np.pile.known.size(); ++i) s.pile[s.pile_n - 1 - i] = np.pile.known[i];
    s.pile_unknown = static_cast<uint8_t>(np.pile.unknown);
    for (int c = 0; c < 2; ++c) {
      s.disc_n[c] = static_cast<uint8_t>(np.discard[c].size());
      std::copy(np.discard[c].begin(), np.discard[c].end(), s.disc[c].begin());
      if (np.hand[c].known.size() > s.hand[c].size())
        throw PositionError("a hand holds more cards than this engine runs", 0);
      s.hand_n[c] = static_cast<uint8_t>(np.hand[c].known.size());
      std::copy(np.hand[c].known.begin(), np.hand[c].known.end(), s.hand[c].begin());
      s.hand_unknown[c] = static_cast<uint8_t>(np.hand[c].unknown);
    }
    s.has_seed = np.reshuffle_seed.has_value();
    s.seed = np.reshuffle_seed.value_or(0);
    s.pending = static_cast<uint8_t>(np.pending);
    cs_ = s;
    stack_.clear();
  }

  // ---- card zones -------------------------------------------------------------------
  // RULINGS 3.3/3.8: the discard piles (White's, then Black's, bottom to top) become the
  // pile, shuffled by the position's seed; both discard piles are emptied.
  static void reshuffle_seeded(Cards& s) {
    std::string gathered(s.disc[0].data(), s.disc_n[0]);
    gathered.append(s.disc[1].data(), s.disc_n[1]);
    std::string shuffled = shuffle_cards(gathered, s.seed);
    ++s.seed;
    s.pile_n = static_cast<uint8_t>(shuffled.size());
    for (size_t i = 0; i < shuffled.size(); ++i) s.pile[s.pile_n - 1 - i] = shuffled[i];
    s.disc_n = {0, 0};
  }
  // Without a seed the order is open: the pile becomes that many unknown cards.
  static void reshuffle_unseeded(Cards& s) {
    s.pile_unknown = static_cast<uint8_t>(s.disc_n[0] + s.disc_n[1]);
    s.disc_n = {0, 0};
  }
  // Draws one card into P's hand when the position fixes it; false when the draw is a
  // chance event (the pile's known part is empty; an empty pile is reshuffled first).
  static bool draw_one(Cards& s, int P) {
    if (s.pile_n == 0 && s.pile_unknown == 0 && s.disc_n[0] + s.disc_n[1] > 0) {
      if (s.has_seed)
        reshuffle_seeded(s);
      else
        reshuffle_unseeded(s);
    }
    if (s.pile_n == 0) return false;
    s.hand[P][s.hand_n[P]++] = s.pile[--s.pile_n];
    return true;
  }
  // The first copy in hand order: the ordered cards before the open ones, the open ones
  // (which copy among them is open too: counted in `gone`), the ordered ones after.
  static void remove_first(Cards& s, int P, char card) {
    auto& h = s.hand[P];
    auto erase = [&](int from, int to) {
      for (int i = from; i < to; ++i)
        if (h[i] == card) {
          for (int j = i; j + 1 < s.hand_n[P]; ++j) h[j] = h[j + 1];
          --s.hand_n[P];
          return true;
        }
      return false;
    };
    if (erase(0, s.uno_at[P])) {
      --s.uno_at[P];
      return;
    }
    const int k = nostress_card_index(card);
    if (k >= 0 && s.uno[P][k] > 0) {
      --s.uno[P][k];
      ++s.gone[P][k];
      settle(s, P);
      return;
    }
    erase(s.uno_at[P], s.hand_n[P]);
  }
  // The deck minus every known card: what unknown parts may hold.
  std::array<int, kKinds> unknown_pool(const Cards& s) const {
    std::array<int, kKinds> pool;
    for (int k = 0; k < kKinds; ++k) pool[k] = c_.rules.deck[k];
    auto take = [&pool](const char* cards, int n) {
      for (int i = 0; i < n; ++i) {
        int k = nostress_card_index(cards[i]);
        if (k >= 0) --pool[k];
      }
    };
    take(s.pile.data(), s.pile_n);
    for (int c = 0; c < 2; ++c) {
      take(s.disc[c].data(), s.disc_n[c]);
      take(s.hand[c].data(), s.hand_n[c]);
      for (int k = 0; k < kKinds; ++k) pool[k] -= s.uno[c][k];
    }
    for (int& n : pool) n = std::max(n, 0);
    return pool;
  }

  // merged chance, the open text's draws, redraws, turns without a move, enumeration.
#include "card_generator_draws.hpp"
};

}  // namespace

std::unique_ptr<Engine> make_card_engine(std::shared_ptr<const Program> program) {
  // No Stress Chess's 56 cards and hands up to 7 run with the small zones (perft speed);
  // larger decks and hands with the largest the compiler admits (card_board.hpp).
  const CardProgram& c = *program->cards;
  if (c.rules.deck_size() <= kNoStressDeckSize && c.hand_size < 8)
    return std::make_unique<CardEngine<kNoStressDeckSize, 8>>(std::move(program));
  return std::make_unique<CardEngine<kMaxCardDeck, kMaxCardHand + 1>>(std::move(program));
}

}  // namespace arb::lang
