#include "mutate/rule_mutants.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "arbiter/lang/construct.hpp"
#include "arbiter/lang/model.hpp"
#include "arbiter/lang/syntax.hpp"

namespace arb::mutate {

namespace {

using arb::lang::ArgType;
using arb::lang::ConstructUse;
using arb::lang::Stmt;
using arb::lang::Value;
using arb::lang::ValueKind;

// Byte offset of a 1-based line and column in `text`.
size_t offset_of(const std::vector<size_t>& line_starts, int line, int col) {
  if (line < 1 || static_cast<size_t>(line) > line_starts.size()) return std::string::npos;
  return line_starts[static_cast<size_t>(line) - 1] + static_cast<size_t>(col - 1);
}

class Generator {
 public:
  Generator(const std::string& text, std::map<std::pair<int, int>, const ConstructUse*> uses)
      : text_(text), uses_(std::move(uses)) {
    starts_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i)
      if (text_[i] == '\n') starts_.push_back(i + 1);
  }

  void statements(const std::vector<Stmt>& list, const std::string& parent) {
    for (const Stmt& s : list) statement(s, parent);
  }

  std::vector<RuleMutant> take() { return std::move(out_); }

 private:
  size_t off(const arb::lang::Loc& l) const { return offset_of(starts_, l.line, l.col); }

  // Where statement `s` ends: after its last argument, or after the `}` closing its block.
  size_t end_of(const Stmt& s) const {
    size_t end = off(s.loc) + static_cast<size_t>(s.loc.len);
    for (const Value& v : s.args) end = std::max(end, off(v.loc) + static_cast<size_t>(v.loc.len));
    if (!s.has_block) return end;
    if (!s.block.empty())
      end = std::max(end, end_of(s.block.back()));
    else if (size_t brace = text_.find('{', end); brace != std::string::npos)
      end = brace + 1;
    // The closing brace: skip blanks, `;` and comments.
    for (size_t p = end; p < text_.size(); ++p) {
      char c = text_[p];
      if (c == '#') {
        p = text_.find('\n', p);
        if (p == std::string::npos) break;
        continue;
      }
      if (c == '}') return p + 1;
      if (!std::isspace(static_cast<unsigned char>(c)) && c != ';') break;
    }
    return end;
  }

  void add(const std::string& op, const std::string& construct, size_t offset, size_t length,
           const std::string& to) {
    if (offset == std::string::npos || offset + length > text_.size()) return;
    RuleMutant m;
    m.op = op;
    m.construct = construct;
    m.offset = offset;
    m.length = length;
    m.from = text_.substr(offset, length);
    m.to = to;
    if (m.from == m.to) return;
    m.text = text_.substr(0, offset) + to + text_.substr(offset + length);
    if (!seen_.insert(m.text).second) return;
    auto line = std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin();
    m.line = static_cast<int>(line);
    m.col = static_cast<int>(offset - starts_[static_cast<size_t>(line) - 1]) + 1;
    out_.push_back(std::move(m));
  }

  // The span of value `v` in the text (a string with its quotes).
  std::pair<size_t, size_t> span(const Value& v) const {
    return {off(v.loc), static_cast<size_t>(v.loc.len)};
  }

  void statement(const Stmt& s, const std::string& parent) {
    const std::string& kw = s.keyword;
    // Metadata, self-checks and record facts (`records`: how the validator reads records)
    // change no move: their mutants could only survive.
    if (kw == "ruleset" || kw == "title" || kw == "expect" || kw == "records") return;
    // Drop the statement (with its block).
    size_t begin = off(s.loc), end = end_of(s);
    add("drop", kw, begin, end - begin, "");
    const ConstructUse* use = nullptr;
    if (auto it = uses_.find({s.loc.line, s.loc.col}); it != uses_.end()) use = it->second;
    for (size_t i = 0; i < s.args.size(); ++i) {
      const Value& v = s.args[i];
      if (kw == "option" && v.kind == ValueKind::String) continue;  // its description
      auto [o, len] = span(v);
      switch (v.kind) {
        case ValueKind::Number:
          add("number", kw, o, len, std::to_string(v.num + 1));
          add("number", kw, o, len, std::to_string(v.num - 1));
          break;
        case ValueKind::Range:
          add("region", kw, o, len, std::to_string(v.lo - 1) + ".." + std::to_string(v.hi));
          add("region", kw, o, len, std::to_string(v.lo + 1) + ".." + std::to_string(v.hi));
          add("region", kw, o, len, std::to_string(v.lo) + ".." + std::to_string(v.hi - 1));
          add("region", kw, o, len, std::to_string(v.lo) + ".." + std::to_string(v.hi + 1));
          add("region", kw, o, len, std::to_string(v.lo - 1) + ".." + std::to_string(v.hi - 1));
          add("region", kw, o, len, std::to_string(v.lo + 1) + ".." + std::to_string(v.hi + 1));
          break;
        case ValueKind::String:
          if (kw == "betza" || kw == "strike" || kw == "region-move") betza(kw, v);
          break;
        case ValueKind::Word:
          word(s, i, use, parent);
          break;
        default:
          break;
      }
    }
    // A rank written as a plain number after `ranks`/`rank` is a region too: shifting it
    // is the number operator's ±1, already generated.
    statements(s.block, kw);
  }

  void betza(const std::string& kw, const Value& v) {
    auto [o, len] = span(v);
    const std::string& b = v.text;
    auto quoted = [](const std::string& t) { return "\"" + t + "\""; };
    static const std::map<char, char> flips = {{'f', 'b'}, {'b', 'f'}, {'l', 'r'}, {'r', 'l'},
                                               {'v', 's'}, {'s', 'v'}, {'m', 'c'}, {'c', 'm'}};
    static const std::map<char, char> atoms = {{'W', 'F'}, {'F', 'W'}, {'D', 'A'}, {'A', 'D'}, {'N', 'C'},
                                               {'C', 'N'}, {'R', 'B'}, {'B', 'R'}, {'Q', 'K'}, {'K', 'Q'}};
    for (size_t i = 0; i < b.size(); ++i) {
      char c = b[i];
      if (std::islower(static_cast<unsigned char>(c))) {
        add("betza", kw, o, len, quoted(b.substr(0, i) + b.substr(i + 1)));
        if (auto f = flips.find(c); f != flips.end())
          add("betza", kw, o, len, quoted(b.substr(0, i) + f->second + b.substr(i + 1)));
      } else if (auto a = atoms.find(c); a != atoms.end()) {
        add("betza", kw, o, len, quoted(b.substr(0, i) + a->second + b.substr(i + 1)));
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        int d = c - '0';
        if (d < 9) add("betza", kw, o, len, quoted(b.substr(0, i) + char('0' + d + 1) + b.substr(i + 1)));
        if (d > 1) add("betza", kw, o, len, quoted(b.substr(0, i) + char('0' + d - 1) + b.substr(i + 1)));
      }
    }
  }

  // Removes word `i` of `s` with the blank before it.
  void remove_word(const std::string& op, const Stmt& s, size_t i) {
    auto [o, len] = span(s.args[i]);
    size_t b = o;
    while (b > 0 && (text_[b - 1] == ' ' || text_[b - 1] == '\t')) --b;
    add(op, s.keyword, b, o + len - b, "");
  }

  void word(const Stmt& s, size_t i, const ConstructUse* use, const std::string& parent) {
    const Value& v = s.args[i];
    auto [o, len] = span(v);
    const std::string& w = v.text;
    // The schema's choices and flags.
    if (use && !use->def().custom) {
      for (const auto& spec : use->def().args) {
        if ((spec.type == ArgType::Choice || spec.type == ArgType::Tokens) &&
            std::find(spec.choices.begin(), spec.choices.end(), w) != spec.choices.end()) {
          for (const auto& alt : spec.choices) add("choice", s.keyword, o, len, alt);
          if (spec.type == ArgType::Tokens || !spec.required) remove_word("choice", s, i);
          return;
        }
        if (spec.type == ArgType::Flag && spec.key == w) {
          remove_word("flag", s, i);
          return;
        }
      }
    }
    // The words of the constructs with a grammar of their own (sema.cpp), each with the
    // others allowed in its place.
    static const std::vector<std::vector<std::string>> groups = {
        {"loss", "draw", "win"}, {"mandatory", "optional"}, {"repetition", "fifty-move"},
        {"move", "place"},       {"beside", "behind"},      {"reserves-empty"},
    };
    bool in_end = parent == "end";
    // A file letter of castling (`king-to g`): one file either way.
    if (i >= 1 && (s.args[i - 1].is("king-to") || s.args[i - 1].is("rook-to")) && w.size() == 1 &&
        std::islower(static_cast<unsigned char>(w[0]))) {
      if (w[0] > 'a') add("region", s.keyword, o, len, std::string(1, static_cast<char>(w[0] - 1)));
      add("region", s.keyword, o, len, std::string(1, static_cast<char>(w[0] + 1)));
      return;
    }
    for (const auto& g : groups) {
      if (std::find(g.begin(), g.end(), w) == g.end()) continue;
      if (w == "repetition" || w == "fifty-move") {
        if (s.keyword != "claim") continue;
      } else if (w == "move" || w == "place") {
        if (s.keyword != "action" && s.keyword != "phase") continue;
      } else if ((w == "loss" || w == "draw" || w == "win" || w == "reserves-empty") && !in_end) {
        continue;
      }
      for (const auto& alt : g) add("choice", s.keyword, o, len, alt);
      if (w == "reserves-empty" && i >= 1 && s.args[i - 1].is("when")) {
        // `when reserves-empty` dropped: the rule applies with pieces in reserve too.
        size_t b = off(s.args[i - 1].loc);
        while (b > 0 && (text_[b - 1] == ' ' || text_[b - 1] == '\t')) --b;
        add("choice", s.keyword, b, o + len - b, "");
      }
      if (w == "optional" && s.keyword == "promote") remove_word("flag", s, i);
      return;
    }
    // A counted letter of a reserve or pile (`R*2`): one more, one fewer.
    if (size_t star = w.find('*');
        star != std::string::npos && star + 1 < w.size() &&
        std::all_of(w.begin() + static_cast<std::ptrdiff_t>(star) + 1, w.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      int n = std::atoi(w.c_str() + star + 1);
      std::string head = w.substr(0, star + 1);
      add("number", s.keyword, o, len, head + std::to_string(n + 1));
      add("number", s.keyword, o, len, n - 1 == 1 ? w.substr(0, star) : head + std::to_string(n - 1));
      return;
    }
    // A piece letter in a list of several (promotion choices, lending types, a reserve):
    // one removed.
    bool letter = w.size() == 1 && std::isupper(static_cast<unsigned char>(w[0]));
    bool listed =
        (i + 1 < s.args.size() && s.args[i + 1].kind == ValueKind::Word && s.args[i + 1].text.size() == 1 &&
         std::isupper(static_cast<unsigned char>(s.args[i + 1].text[0]))) ||
        (i > 0 && s.args[i - 1].kind == ValueKind::Word && s.args[i - 1].text.size() == 1 &&
         std::isupper(static_cast<unsigned char>(s.args[i - 1].text[0])));
    if (letter && listed && s.keyword != "piece") remove_word("letter", s, i);
  }

  const std::string& text_;
  std::map<std::pair<int, int>, const ConstructUse*> uses_;
  std::vector<size_t> starts_;
  std::vector<RuleMutant> out_;
  std::set<std::string> seen_;
};

}  // namespace

std::string RuleMutant::describe() const {
  std::string f = from, t = to;
  auto one_line = [](std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    if (s.size() > 60) s = s.substr(0, 57) + "...";
    return s;
  };
  if (op == "drop") return "drop `" + one_line(f) + "`";
  if (t.empty()) return "remove `" + one_line(f) + "`";
  return "`" + one_line(f) + "` -> `" + one_line(t) + "`";
}

std::string RuleMutant::mutated_line() const {
  size_t b = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  b = (b == std::string::npos || offset == 0) ? 0 : b + 1;
  size_t e = text.find('\n', offset);
  return text.substr(b, (e == std::string::npos ? text.size() : e) - b);
}

std::vector<RuleMutant> generate_mutants(const std::string& path, const std::string& text) {
  arb::lang::Diagnostics diags;
  arb::lang::Source src(path, text);
  auto tree = arb::lang::parse(src, diags);
  if (diags.has_errors()) return {};
  std::vector<std::unique_ptr<arb::lang::Source>> sources;
  arb::lang::Diagnostics mdiags;
  auto model = arb::lang::load_ruleset(path, {}, mdiags, sources);
  std::map<std::pair<int, int>, const ConstructUse*> uses;
  if (model)
    for (const ConstructUse* u : model->all_constructs())
      if (u->loc.src && u->loc.src->path == path) uses[{u->loc.line, u->loc.col}] = u;
  Generator g(text, uses);
  g.statements(tree, "");
  auto out = g.take();
  std::stable_sort(out.begin(), out.end(),
                   [](const RuleMutant& a, const RuleMutant& b) { return a.offset < b.offset; });
  return out;
}

namespace {

template <class T>
void bytes(std::ostringstream& o, const T& x) {
  static_assert(std::is_trivially_copyable_v<T>);
  o.write(reinterpret_cast<const char*>(&x), sizeof(T));
}

template <class BB>
void tables(std::ostringstream& o, const arb::lang::BoardTables<BB>& t) {
  bytes(o, t.board_mask);
  bytes(o, t.place_zone);
  for (const auto& p : t.pieces) {
    bytes(o, p.leap_move);
    bytes(o, p.leap_capture);
    bytes(o, p.leap_capture_from);
    bytes(o, p.ep_capture);
    bytes(o, p.ride_move);
    bytes(o, p.ride_capture);
    bytes(o, p.promote_zone);
    bytes(o, p.forbidden_zone);
    for (const auto& side : p.initial_lame)
      for (const auto& sq : side) {
        o << '|' << sq.size();
        for (const auto& l : sq) {
          bytes(o, l.to);
          bytes(o, l.path);
        }
      }
  }
}

}  // namespace

std::string program_fingerprint(const arb::lang::Program& p) {
  std::ostringstream o;
  // Not the option list: option values reach the generator only through the fields that
  // use them (claim_repetition, the grid's seed, ...), which are below.
  o << p.variant << '\n';
  o << p.width << 'x' << p.height << ' ' << p.squares << ' ' << p.ntypes << ' ' << p.royal_type << ' '
    << p.letters << '\n';
  for (const auto& t : p.types) {
    o << t.letter << t.royal << t.minor_bishop << t.minor_knight << t.must_promote << t.resets_clock << ' '
      << t.promote_to << ' ';
    for (int c = 0; c < 2; ++c) {
      for (const auto& l : t.leaps[c])
        o << l.dx << ',' << l.dy << ',' << l.move << l.capture << l.en_passant << ';';
      for (const auto& l : t.lame[c]) o << l.dx << ',' << l.dy << ',' << l.from << (l.jumps ? "j" : "") << ';';
      o << int(t.ride_move[c]) << ',' << int(t.ride_capture[c]) << ',' << t.promote_zone[c] << ','
        << t.forbidden_zone[c] << '|';
      // Chess 2's primitives (captures, captured-by, immune, no-check, teleport, region-move, borrows).
      o << t.promote_choices[c] << ',' << t.teleport_except[c] << ',';
      for (const auto& l : t.region_leaps[c]) o << l.dx << ',' << l.dy << ';';
      // RULINGS 4.10's primitives (Betza `d`, limited riders, strike, rampage).
      for (const auto& l : t.own_leaps[c]) o << l.dx << ',' << l.dy << ';';
      for (const auto* lines : {&t.limited[c], &t.strike.lines[c]}) {
        for (const auto& l : *lines) o << l.d << ',' << l.range << ',' << l.move << l.capture << ';';
        o << '/';
      }
      o << int(t.rampage.dirs[c]) << '|';
    }
    o << int(t.captures) << int(t.captured_by) << t.immune << t.gives_check << t.teleport_move
      << t.teleport_capture << ' ' << t.borrows << ',' << int(t.borrow_dirs) << ' ' << t.rampage.reach << ','
      << t.rampage.blocked_own_royal << t.rampage.blocked_immune << ',' << t.rampage.blocked_types << ','
      << t.rampage.self_beyond << ',' << t.captured_within << ' ' << t.around.reach << ','
      << t.around.at_least << ',' << t.around.kept << ',' << t.around.not_beside_own_royal
      << int(t.around.trigger) << t.around.self;
    o << '\n';
  }
  o << p.castling << ' ' << p.castling_rook << ' ' << p.ks_king_to << p.ks_rook_to << p.qs_king_to
    << p.qs_rook_to << ' ' << p.has_reserve << ' ' << p.start_text << ' ' << p.action_move << p.action_place
    << ' ' << p.place_zone[0] << ',' << p.place_zone[1] << ' ' << p.place_first_royal << p.royal_safe
    << p.royals_apart << ' ' << static_cast<int>(p.on_checkmate) << p.checkmate_loses << p.stalemate_draw
    << p.insufficient_draw << p.insufficient_needs_empty_reserves << ' ' << p.claim_repetition << ' '
    << p.claim_fifty << ' ' << p.lines_are_rays << '\n';
  o << p.royal_capture << '\n';
  // Issue 24's end conditions, counters and forced capture (gen_ends.hpp).
  o << static_cast<int>(p.checkmate_value) << ',' << static_cast<int>(p.stalemate_value)
    << p.stalemate_by_count << ' ' << p.checks_to_win << ' ' << p.must_capture << ' ' << p.castling_king;
  for (const auto& e : p.extinctions)
    o << " x" << e.types << ',' << e.all << ',' << e.at_most << ',' << e.opponent_at_least << ',' << e.claim
      << ',' << static_cast<int>(e.value);
  o << '\n';
  if (const auto* c = p.cards.get())
    o << "cards " << c->deck << ' ' << c->hand_size << ' ' << c->redraw << ' ' << c->level << ' ' << c->seed
      << ' ' << c->board << ' ' << c->again_own << c->again_opponent << ' ' << c->redraw_alike
      << c->redraw_no_move << ' ' << c->escape_duty << '\n';
  // Armies, the Chess960 setup and Chess 2's end rules.
  o << p.army[0] << ',' << p.army[1] << ' ' << p.army_types[0] << ',' << p.army_types[1] << ' '
    << p.castles[0] << p.castles[1] << ' ' << p.army_base << ',' << p.army_slots[0] << ',' << p.army_slots[1]
    << ' ' << p.chess960_setup << p.no_move_loses << p.invasion << ' ' << p.invasion_reason << ' '
    << p.capture_rules << p.borrowing << p.chess2_primitives << ' ' << p.royal_types << ','
    << p.royal_count[0] << p.royal_count[1] << ',' << p.king_turn[0] << p.king_turn[1] << '\n';
  if (p.tables64) tables(o, *p.tables64);
  if (p.tables128) tables(o, *p.tables128);
  if (p.tables256) tables(o, *p.tables256);
  if (const auto* g = p.grid.get()) {
    o << "grid " << g->royal_type << ' ' << g->pawn_type << ' ' << g->adjacency_rule << ' ' << g->hand_size
      << ' ' << g->hand_draw << ' ' << g->pile << ' ' << g->pile_shuffled << ' ' << g->seed << ' '
      << g->setup_pieces << ' ' << g->place << g->place_pawn_beside << g->place_other_behind
      << g->draw_after_place << ' ' << g->no_move_reason << '\n';
    for (const auto& t : g->types) {
      o << t.letter << t.royal << t.is_pawn << t.promote_exchange << ' ';
      for (int c = 0; c < 2; ++c) {
        for (const auto& m : t.moves[c])
          o << m.dx << ',' << m.dy << ',' << m.rider << m.can_move << m.can_capture << ';';
        bytes(o, t.leap_capture[c]);
        o << int(t.ride_capture[c]) << '|';
      }
      o << '\n';
    }
  }
  return o.str();
}

}  // namespace arb::mutate
