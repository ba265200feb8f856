// Merged chance, the open text's draws, redraws, turns without a move, enumeration.
//
// A part of the body of class CardEngine (card_generator.cpp includes it inside the
// class, in this place): member functions moved out of card_generator.cpp unchanged.
// Not a standalone header; include it nowhere else. clang-format would unindent it: it
// is formatted as part of the class.
// clang-format off

  // ---- merged chance (set_merged_chance) --------------------------------------------
  // Cards drawn from the unknown pool arrive in a uniformly random order given their
  // multiset (the draws are exchangeable), and hand order shows only when a redraw puts the
  // hand on the discard pile (RULINGS 3.4; playing a kind takes its first copy, and copies
  // of a kind are alike). So m draws in a row are one chance node over multisets, kept as
  // open cards in the hand, and their order is drawn when a redraw discards them.
  using Counts = std::array<uint8_t, kKinds>;
  static int uno_total(const Cards& s, int P) {
    int n = 0;
    for (int k = 0; k < kKinds; ++k) n += s.uno[P][k];
    return n;
  }
  // The cards in P's hand the position names (ordered and open).
  static int held(const Cards& s, int P) { return s.hand_n[P] + uno_total(s, P); }
  static std::string letters(const Counts& c) {
    std::string t;
    for (int k = 0; k < kKinds; ++k) t.append(c[k], kNoStressCardKinds[k]);
    return t;
  }
  static Counts set_of(const Action& a) {
    Counts c{};
    for (int k = 0; k < kKinds; ++k) c[k] = static_cast<uint8_t>((a.lo >> (4 * k)) & 15);
    return c;
  }
  static std::string order_of(const Action& a) {
    std::string t;
    for (int i = 0; i < kHand; ++i) {
      int k = static_cast<int>((a.lo >> (3 * i)) & 7);
      if (k == 0) break;
      t += kNoStressCardKinds[k - 1];
    }
    return t;
  }
  // The open cards become ordered cards in the order `order`, between the ordered ones.
  static void linearize(Cards& s, int P, const std::string& order) {
    auto& h = s.hand[P];
    const int at = s.uno_at[P], n = static_cast<int>(order.size());
    for (int i = s.hand_n[P] - 1; i >= at; --i) h[i + n] = h[i];
    for (int i = 0; i < n; ++i) h[at + i] = order[i];
    s.hand_n[P] = static_cast<uint8_t>(s.hand_n[P] + n);
    s.uno[P] = {};
    s.gone[P] = {};
    s.uno_at[P] = 0;
  }
  // Canonical open part: a played kind with no copy left open no longer bears on the order
  // of the others (deleting every copy of a kind from a uniformly random order leaves a
  // uniformly random order), and open cards of one kind have one order: they are ordered.
  static void settle(Cards& s, int P) {
    int kinds = 0;
    for (int k = 0; k < kKinds; ++k) {
      if (s.uno[P][k] == 0) s.gone[P][k] = 0;
      if (s.uno[P][k] > 0) ++kinds;
    }
    if (kinds <= 1) linearize(s, P, letters(s.uno[P]));
  }
  // The orders of P's open cards and their probabilities: the cards drawn (open and gone)
  // lie in a uniformly random order; each played copy was the first of its kind, so an
  // order of the open cards is weighed by the orders of all drawn cards that give it once
  // the first `gone` copies of each kind are deleted.
  static void open_orders(const Cards& s, int P, std::vector<std::pair<std::string, double>>& out) {
    std::vector<int> all;
    for (int k = 0; k < kKinds; ++k) all.insert(all.end(), s.uno[P][k] + s.gone[P][k], k);
    std::vector<std::pair<std::string, long>> tally;
    long total = 0;
    do {
      Counts skip = s.gone[P];
      std::string t;
      for (int k : all)
        if (skip[k] > 0)
          --skip[k];
        else
          t += kNoStressCardKinds[k];
      auto it = std::find_if(tally.begin(), tally.end(), [&t](const auto& x) { return x.first == t; });
      if (it == tally.end())
        tally.push_back({t, 1});
      else
        ++it->second;
      ++total;
    } while (std::next_permutation(all.begin(), all.end()));
    std::sort(tally.begin(), tally.end());
    for (const auto& [t, n] : tally) out.push_back({t, static_cast<double>(n) / static_cast<double>(total)});
  }
  // How many draws the next chance node makes at once (0: one, as without merging): the
  // pending draws of a redraw that the unknown pile covers (after an unseeded reshuffle,
  // as the first of them would make it), or the reveal of an unknown hand, when P holds no
  // open cards yet. `s` is reshuffled as the node would.
  int merged_count(Cards& s, int P) const {
    if (!merged_ || uno_total(s, P) > 0) return 0;
    int m = 0;
    if (s.pending > 0) {
      if (s.pile_n == 0 && s.pile_unknown == 0) reshuffle_unseeded(s);
      m = std::min<int>(s.pending, s.pile_unknown);
    } else if (s.hand_unknown[P] > 0) {
      m = s.hand_unknown[P];
    }
    return m >= 2 ? m : 0;
  }
  static double choose(int n, int k) {
    if (k < 0 || k > n) return 0;
    double r = 1;
    for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return r;
  }
  // Every multiset of m cards from `pool` (kinds from k on), weighted by the product of
  // the binomials times `scale` (1 / C(pool size, m)).
  static void draw_sets(const std::array<int, kKinds>& pool, std::array<int, kKinds>& take, int k, int m,
                        double scale, std::vector<ChanceOutcome>& out) {
    if (k == kKinds) {
      if (m > 0) return;
      double w = scale;
      uint64_t code = 0;
      for (int j = 0; j < kKinds; ++j) {
        w *= choose(pool[j], take[j]);
        code |= uint64_t(take[j]) << (4 * j);
      }
      out.push_back(ChanceOutcome{make_action(kDrawSet, 0, code), w});
      return;
    }
    for (int n = std::min(m, pool[k]); n >= 0; --n) {
      take[k] = n;
      draw_sets(pool, take, k + 1, m - n, scale, out);
    }
    take[k] = 0;
  }
  // The chance outcome of merged_count's node: the multiset joins P's hand as open cards.
  void apply_draw_set(const Action& a, int P) {
    Cards& s = cs_;
    const Counts c = set_of(a);
    int m = 0;
    for (int k = 0; k < kKinds; ++k) m += c[k];
    s.uno[P] = c;
    s.gone[P] = {};
    s.uno_at[P] = s.hand_n[P];
    if (s.pending > 0) {
      if (s.pile_n == 0 && s.pile_unknown == 0) reshuffle_unseeded(s);
      s.pile_unknown = static_cast<uint8_t>(s.pile_unknown - m);
      s.pending = static_cast<uint8_t>(s.pending - m);
      settle(s, P);
      while (s.pending > 0 && draw_one(s, P)) --s.pending;
      if (s.pending == 0) end_turn_without_move();
    } else {
      s.hand_unknown[P] = static_cast<uint8_t>(s.hand_unknown[P] - m);
      settle(s, P);
    }
  }
  // RULINGS 3.4: the whole (ordered) hand onto the own discard pile, in hand order, then a
  // new hand of H cards, one at a time (reshuffling whenever the pile is empty).
  void redraw(Cards& s, int P) {
    for (int i = 0; i < s.hand_n[P]; ++i) s.disc[P][s.disc_n[P]++] = s.hand[P][i];
    s.hand_n[P] = 0;
    // Deferred draws: the new hand comes from the pile's unknown part and stays hidden
    // (`?H`) until P acts again, drawn then as one chance node. Exact by exchangeability
    // (a hidden hand is a uniformly random part of the unknown cards, and every draw weighs
    // the unknown cards alike) as long as no reshuffle mixes known cards in before P
    // acts: the pile keeps enough unknown cards for the opponent's turn, a redraw included.
    if (defer_ && s.pile_n == 0 && s.hand_unknown[P] == 0 && s.pile_unknown >= 3 * H_ + 2) {
      s.hand_unknown[P] = static_cast<uint8_t>(H_);
      s.pile_unknown = static_cast<uint8_t>(s.pile_unknown - H_);
      s.pending = 0;
      cs_ = s;
      end_turn_without_move();
      return;
    }
    s.pending = static_cast<uint8_t>(H_);
    while (s.pending > 0 && draw_one(s, P)) --s.pending;
    cs_ = s;
    if (cs_.pending == 0) end_turn_without_move();
  }

  // The text's open parts (nostress_text.hpp, "Merged chance"): `[UNO/GONE]` in a hand
  // and the field `redrawing`, taken out so that parse_nostress reads the rest.
  struct Open {
    std::array<std::string, 2> uno, gone;
    std::array<int, 2> at{};
    bool ordering = false;
  };
  static std::string strip_open(std::string_view text, Open& o) {
    std::string t(text);
    for (int c = 0; c < 2; ++c) {
      const std::string key = c == 0 ? "whand:" : "bhand:";
      size_t f = t.find(key);
      if (f == std::string::npos) continue;
      size_t b = t.find('[', f), end = t.find_first_of(" \t", f);
      if (b == std::string::npos || (end != std::string::npos && b > end)) continue;
      size_t e = t.find(']', b);
      if (e == std::string::npos || (end != std::string::npos && e > end))
        throw PositionError("`[` without `]` in the hand", b);
      std::string inner = t.substr(b + 1, e - b - 1);
      size_t slash = inner.find('/');
      o.uno[c] = inner.substr(0, slash);
      if (slash != std::string::npos) o.gone[c] = inner.substr(slash + 1);
      for (const std::string* part : {&o.uno[c], &o.gone[c]})
        for (char x : *part)
          if (nostress_card_index(x) < 0)
            throw PositionError(std::string("`") + x + "` is no card (open cards are PNBRQKA)", b + 1);
      if (o.uno[c].empty()) throw PositionError("`[]` names no open card", b);
      o.at[c] = static_cast<int>(b - (f + key.size()));
      t = t.substr(0, b) + o.uno[c] + t.substr(e + 1);
    }
    const std::string mark = " redrawing";
    size_t r = t.find_last_not_of(" \t");
    if (r != std::string::npos && r + 1 >= mark.size() &&
        t.compare(r + 1 - mark.size(), mark.size(), mark) == 0) {
      o.ordering = true;
      t.erase(r + 1 - mark.size());
    }
    return t;
  }
  void load_open(const Open& o) {
    Cards& s = cs_;
    for (int c = 0; c < 2; ++c) {
      if (o.uno[c].empty()) continue;
      const int at = o.at[c], n = static_cast<int>(o.uno[c].size());
      auto& h = s.hand[c];
      for (int i = at; i + n < s.hand_n[c]; ++i) h[i] = h[i + n];
      s.hand_n[c] = static_cast<uint8_t>(s.hand_n[c] - n);
      s.uno_at[c] = static_cast<uint8_t>(at);
      for (char x : o.uno[c]) ++s.uno[c][nostress_card_index(x)];
      for (char x : o.gone[c]) ++s.gone[c][nostress_card_index(x)];
      settle(s, c);
    }
    if (o.ordering) {
      const int P = side();
      if (s.pending > 0 || s.hand_unknown[P] > 0 || held(s, P) != H_ + 1 || uno_total(s, P) == 0)
        throw PositionError("`redrawing` needs the side to move holding H + 1 cards, some of them open", 0);
      s.ordering = true;
    }
  }

  // The chance outcome `card` (nostress_text.hpp, cases a, b, c).
  void apply_draw(int k, int P) {
    const char card = kNoStressCardKinds[k];
    Cards& s = cs_;
    if (s.pending > 0) {
      if (s.pile_n == 0 && s.pile_unknown == 0) reshuffle_unseeded(s);
      s.hand[P][s.hand_n[P]++] = card;
      if (s.pile_unknown > 0) --s.pile_unknown;
      --s.pending;
      while (s.pending > 0 && draw_one(s, P)) --s.pending;
      if (s.pending == 0) end_turn_without_move();
    } else if (s.hand_unknown[P] > 0) {
      s.hand[P][s.hand_n[P]++] = card;  // the oldest unknown card, revealed
      --s.hand_unknown[P];
    } else {
      if (s.pile_n == 0 && s.pile_unknown == 0) reshuffle_unseeded(s);
      s.hand[P][s.hand_n[P]++] = card;
      if (s.pile_unknown > 0) --s.pile_unknown;
    }
  }

  void end_turn_without_move() {
    hook_->pass_turn();
    stack_.back().board_moved = true;
  }

  // P's cards when it acts: the turn's draw made when it is still to come (it is known:
  // the position is no chance node).
  Cards acting(int P) const {
    Cards s = cs_;
    if (held(s, P) + s.hand_unknown[P] == H_) draw_one(s, P);
    return s;
  }

  // The pieces an Again card moves (RULINGS 3.5): the newest piece card of the own and of
  // the opponent's discard pile, Again cards skipped.
  uint32_t again_mask(const Cards& s, int P) const {
    uint32_t mask = 0;
    for (int c : {P, P ^ 1}) {
      if ((c == P && !c_.again_own) || (c != P && !c_.again_opponent)) continue;
      for (int i = s.disc_n[c] - 1; i >= 0; --i) {
        int k = nostress_card_index(s.disc[c][i]);
        if (k == kAgain) continue;
        if (k >= 0 && type_[k] >= 0) mask |= 1u << type_[k];
        break;
      }
    }
    return mask;
  }

  // Whether the game is over before anything is drawn: a royal captured, or at the
  // advanced level checkmate or stalemate (no legal move for any piece type).
  bool decided() {
    const int P = side();
    if (!hook_->has_royal(P)) return true;
    if (!p_->royal_safe) return false;
    hook_->set_move_types(CardBoard::kAllTypes);
    return hook_->count_moves() == 0;
  }
  // decided() sets the generator's type mask and counts moves, leaving the position as it
  // was: logically const, so chance() (a const query of the interface) may use it.
  bool decided_now() const { return const_cast<CardEngine*>(this)->decided(); }

  // How many cards of each kind player P may play: the hand's and the Again cards set aside.
  static std::array<int, kKinds> kinds_in_hand(const Cards& s, int P) {
    std::array<int, kKinds> count{};
    for (int i = 0; i < s.hand_n[P]; ++i) {
      int k = nostress_card_index(s.hand[P][i]);
      if (k >= 0) ++count[k];
    }
    for (int k = 0; k < kKinds; ++k) count[k] += s.uno[P][k];
    return count;
  }

  // The turn's actions (RULINGS 3.4, 3.7, 3.9): one per card kind in hand and move of that
  // kind, or a pass for a kind that allows no move, and the redraw when three or more
  // cards are alike or no card allows a move. In check (advanced), only the cards that
  // allow an escape when there are any. Lists into `out`, or only counts when it is null.
  uint64_t enumerate(std::vector<Action>* out) {
    const int P = side();
    const Cards s = acting(P);
    const std::array<int, kKinds> count = kinds_in_hand(s, P);
    std::array<uint64_t, kKinds> moves{};
    std::array<uint32_t, kKinds> mask{};
    bool any = false, alike = false;
    for (int k = 0; k < kKinds; ++k) {
      if (!count[k]) continue;
      if (c_.redraw_alike && count[k] >= c_.redraw_alike) alike = true;
      mask[k] = k == kAgain ? again_mask(s, P) : (type_[k] >= 0 ? 1u << type_[k] : 0u);
      if (mask[k]) {
        hook_->set_move_types(mask[k]);
        moves[k] = hook_->count_moves();
      }
      if (moves[k]) any = true;
    }
    if (!any && p_->royal_safe) {
      // No card allows a move: checkmate or stalemate when no piece at all can move.
      hook_->set_move_types(CardBoard::kAllTypes);
      if (hook_->count_moves() == 0) return 0;
    }
    const bool escape_duty = any && c_.escape_duty && hook_->in_check();
    uint64_t n = 0;
    for (int k = 0; k < kKinds; ++k) {
      if (!count[k]) continue;
      if (moves[k]) {
        n += moves[k];
        if (out) {
          hook_->set_move_types(mask[k]);
          moves_.clear();
          hook_->list_moves(moves_);
          for (const Action& m : moves_) out->push_back(make_action(kPlay, k, m.lo));
        }
      } else if (!escape_duty) {
        ++n;
        if (out) out->push_back(make_action(kPass, k));
      }
    }
    if (c_.redraw && !escape_duty && (alike || (c_.redraw_no_move && !any))) {
      ++n;
      if (out) out->push_back(make_action(kRedraw, 0));
    }
    hook_->set_move_types(CardBoard::kAllTypes);
    return n;
  }
// clang-format on
