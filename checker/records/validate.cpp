// Kinds of fault (GameReport::kind):
//   syntax            the text is not PGN (malformed tag, unclosed comment or variation, ...)
//   unknown-variant   the Variant tag names no bundled ruleset, the Rules file does not load
//   rules-path        the Rules tag names a file outside the record's folder and the ruleset
//                     search path (`--rules-anywhere` allows it)
//   limit             a bound on memory was hit (tokens in a game, nesting of variations,
//                     distinct engines in a run): the message names it
//   bad-option        an option tag the variant does not take, or a bad value
//   bad-position      the FEN tag is not a position of the variant
//   unreadable        an action text that is no notation of any action
//   ambiguous         SAN that several legal actions match
//   no-piece          no own piece of that type (on that file/rank/square)
//   no-piece-reaches  own pieces of that type exist, no pseudo-legal action of them reaches
//   occupied          the destination holds an own piece / a placement onto a piece
//   king-in-check     a pseudo-legal action (Engine::pseudo_legal_actions) that is not legal:
//                     it leaves (or puts) the own royal piece attacked
//   castling          castling that is not allowed
//   promotion         a promotion missing, not allowed, or to the wrong piece
//   placement-outside-half, not-in-reserve, king-first, kings-adjacent   (placements, from
//                     the squares and pieces the engine places and the ruleset's royals-apart)
//   adjacency         `move-condition non-capture adjacent-to any`: the destination touches
//                     no other piece
//   card              No Stress Chess: the card is not in the hand or does not allow it
//   step              a later step of a multi-step turn (a ChessMe placement, a Chess 2
//                     king-turn) is not legal after the first
//   game-over         an action after the game ended
//   illegal           any other illegal action
//   false-mate        `#` (or a Termination tag naming mate) on a position that is no mate
//   result-mismatch   the Result tag and the movetext's result differ
//   wrong-result      the final position is decided and the result names another outcome
//   unfinished-marked the final position is decided but the result is `*`
//   impossible-draw   a draw claimed that the position does not allow
#include "validate.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>
#include <new>
#include <optional>
#include <type_traits>

#include "arbiter/json.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/numbers.hpp"
#include "arbiter/targeted.hpp"
#include "arbiter/text_fields.hpp"
#include "registry/catalogue.hpp"
#include "validate_detail.hpp"

namespace arb::records {

namespace fs = std::filesystem;

using namespace detail;

// Walking a game: its variant and start from the tags, every action of the main line and of
// the variations, then the result against the final position. (The engines: engine_cache.cpp;
// the explanation of an action that is not legal: diagnose.cpp; the reports: report.cpp.)

void Validator::check(const ParsedGame& g, const std::string& dir, GameReport& r) {
  uint32_t first_line = g.tokens.empty() ? (g.tags.empty() ? 1 : g.tags[0].line) : g.tokens[0].line;
  if (!g.tags.empty()) first_line = std::min(first_line, g.tags[0].line);
  Finding sink;  // where findings past kMaxFindings go
  auto add = [&](Severity sev, uint32_t line, uint32_t col, int ply, std::string_view move, std::string code,
                 std::string reason) -> Finding& {
    if (r.findings.size() >= kMaxFindings) {
      // Memory stays bounded: one `limit` error says so, the rest is dropped (into `sink`).
      if (r.findings.size() == kMaxFindings) {
        r.findings.push_back(
            Finding{Severity::Error,
                    "limit",
                    line,
                    col,
                    ply,
                    std::string(move),
                    "more than " + std::to_string(kMaxFindings) +
                        " findings in one game (the findings limit): the rest are not reported",
                    false,
                    {}});
      }
      sink = Finding{};
      return sink;
    }
    Finding f;
    f.severity = sev;
    f.line = line;
    f.column = col;
    f.ply = ply;
    f.move = std::string(move);
    f.code = std::move(code);
    f.reason = std::move(reason);
    r.findings.push_back(std::move(f));
    return r.findings.back();
  };
  auto fail_at = [&](uint32_t line, uint32_t col, int ply, std::string_view move, std::string code,
                     std::string reason) -> Finding& {
    return add(Severity::Error, line, col, ply, move, std::move(code), std::move(reason));
  };
  auto warn_at = [&](uint32_t line, uint32_t col, int ply, std::string_view move, std::string code,
                     std::string reason) -> Finding& {
    return add(Severity::Warning, line, col, ply, move, std::move(code), std::move(reason));
  };
  // Tags by name; FEN and SetUp in any spelling of their case (`Fen`, `Setup`, `SETUP`).
  auto tag_at = [&](const char* name) -> const Tag* {
    for (const auto& t : g.tags)
      if (t.name == name) return &t;
    std::string want = lower(name);
    if (want == "fen" || want == "setup")
      for (const auto& t : g.tags)
        if (lower(t.name) == want) return &t;
    return nullptr;
  };
  for (const auto& t : g.tags) r.tags.emplace_back(t.name, t.value);
  // The ruleset and its options.
  const Tag* vtag = tag_at("Variant");
  const Tag* rtag = tag_at("Rules");
  std::string path;
  if (!cache_.forced_rules().empty()) {
    // `arbiter validate --rules FILE`: every record is of that ruleset, whatever it says.
    path = cache_.forced_rules();
    rtag = nullptr;
  } else if (rtag && !trim(rtag->value).empty()) {
    fs::path rp = trim(rtag->value);
    if (rp.is_relative() && !dir.empty()) rp = fs::path(dir) / rp;
    path = rp.string();
    // A record names only a ruleset beside it or along the search path (unless the run
    // allows any: `--rules-anywhere`): a record from elsewhere must not read any file.
    std::string why;
    if (!cache_.rules_allowed(rp, dir, why)) {
      fail_at(rtag->line, rtag->value_column, 0, rtag->value, "rules-path", why);
      return;
    }
  } else {
    // The bundled ruleset whose name or `records { name ... }` the tag gives.
    path = cache_.ruleset_named(vtag ? vtag->value : "");
    if (path.empty()) {
      fail_at(
          vtag->line, vtag->value_column, 0, vtag->value, "unknown-variant",
          "unknown variant `" + vtag->value + "` (no bundled ruleset of that name; use [Rules \"FILE\"])");
      return;
    }
  }
  std::error_code ec;
  if (!rtag || !fs::is_regular_file(path, ec)) {
    if (rtag && !fs::is_regular_file(path, ec)) {
      fail_at(rtag->line, rtag->value_column, 0, rtag->value, "unknown-variant",
              "the ruleset file `" + path + "` does not exist");
      return;
    }
  }
  // The tags the ruleset's `records` block maps to options or to the seeded start.
  const std::vector<registry::RecordTagMap>& tag_maps = cache_.tag_maps(path);
  // Tags neither the PGN standard (its seven-tag roster and section 9) nor Arbiter's record
  // format (Variant, Rules, Options, Start, the ruleset's own) defines: a warning each.
  for (const auto& t : g.tags) {
    static constexpr std::string_view kStandard[] = {
        "Event",      "Site",       "Date",        "Round",        "White",        "Black",       "Result",
        "WhiteTitle", "BlackTitle", "WhiteElo",    "BlackElo",     "WhiteUSCF",    "BlackUSCF",   "WhiteNA",
        "BlackNA",    "WhiteType",  "BlackType",   "EventDate",    "EventSponsor", "Section",     "Stage",
        "Board",      "Opening",    "Variation",   "SubVariation", "ECO",          "NIC",         "Time",
        "UTCTime",    "UTCDate",    "TimeControl", "SetUp",        "FEN",          "Termination", "Annotator",
        "Mode",       "PlyCount",   "Variant",     "Rules",        "Options",      "Start"};
    bool known = std::find(std::begin(kStandard), std::end(kStandard), t.name) != std::end(kStandard);
    for (const auto& m : tag_maps) known = known || m.tag == t.name;
    if (!known)
      warn_at(t.line, t.value_column, 0, t.name, "nonstandard-tag",
              "tag `" + t.name + "` is not a PGN standard tag nor one of the record format");
  }
  std::map<std::string, std::string> opts;
  std::string seed, start_n;
  bool dice_seed = false;
  const Tag* opt_tag = nullptr;
  const Tag* seed_tag = nullptr;
  for (const auto& t : g.tags) {
    std::string v = lower(trim(t.value));
    for (char& ch : v)
      if (ch == ' ') ch = '-';
    const registry::RecordTagMap* map = nullptr;
    for (const auto& m : tag_maps)
      if (m.tag == t.name) map = &m;
    if (map && (map->target == "seed" || map->target == "dice-seed")) {
      seed = trim(t.value);
      dice_seed = map->target == "dice-seed";
      seed_tag = &t;
    } else if (map) {
      for (const auto& [from, to] : map->values)
        if (lower(from) == v) v = to;
      opts[map->target] = v;
      opt_tag = &t;
    } else if (t.name == "Options") {
      opt_tag = &t;
      std::string s = t.value;
      for (char& ch : s)
        if (ch == ';' || ch == ',') ch = ' ';
      size_t i = 0;
      while (i < s.size()) {
        size_t j = s.find(' ', i);
        if (j == std::string::npos) j = s.size();
        std::string kv = s.substr(i, j - i);
        size_t eq = kv.find('=');
        if (eq != std::string::npos && eq > 0) opts[kv.substr(0, eq)] = kv.substr(eq + 1);
        i = j + 1;
      }
    } else if (t.name == "Start") {
      start_n = trim(t.value);
    }
  }
  const RecordEngine& proto = cache_.get(path, opts);
  if (!proto.engine) {
    const Tag* at = opt_tag ? opt_tag : vtag ? vtag : rtag;
    bool option = proto.error.rfind("option", 0) == 0;
    bool limit = proto.error.rfind("limit", 0) == 0;
    fail_at(at ? at->line : first_line, at ? at->value_column : 1, 0, at ? at->value : "",
            limit    ? "limit"
            : option ? "bad-option"
                     : "unknown-variant",
            proto.error);
    return;
  }
  r.variant = proto.variant;
  std::string key = path;
  for (const auto& [k, v] : opts) key += "\n" + k + "=" + v;
  Slot& slot = engines_[key];
  if (slot.proto != &proto) {
    slot.engine = proto.engine->clone();
    slot.proto = &proto;
  }
  Engine& e = *slot.engine;
  // The start position.
  const Tag* fen = tag_at("FEN");
  const Tag* setup = tag_at("SetUp");
  std::string start = proto.start;
  const Tag* start_tag = nullptr;
  if (fen && !(setup && trim(setup->value) == "0")) {
    start = trim(fen->value);
    start_tag = fen;
  } else if (!seed.empty() && !dice_seed) {
    start = "start:" + seed;
    start_tag = seed_tag;
  } else if (!seed.empty()) {
    // `tag Seed -> dice-seed`: the back rank the rule text's dice procedure picks.
    // A decimal number in 0..2^64-1, nothing else (`abc` and `-7` were read as some seed).
    auto sv = arb::parse_unsigned(seed, 0, UINT64_MAX);
    if (!sv) {
      fail_at(seed_tag->line, seed_tag->value_column, 0, seed, "bad-position",
              "bad seed `" + seed + "`: expected a number from 0 to 18446744073709551615");
      return;
    }
    start = "start:" + std::to_string(registry::chess960_dice_start(*sv));
    start_tag = seed_tag;
  } else if (!start_n.empty()) {
    start = "start:" + start_n;
    start_tag = tag_at("Start");
  }
  if (start_tag == fen && fen) {
    // Fullmove `0` (mate-in-N problem collections write it): read as 1, with a warning.
    size_t sp = start.find_last_of(' ');
    if (sp != std::string::npos && start.substr(sp + 1) == "0" &&
        std::count(start.begin(), start.end(), ' ') >= 5) {
      warn_at(fen->line, fen->value_column + static_cast<uint32_t>(sp) + 1, 0, fen->value,
              "fen-fullmove-zero", "the FEN's fullmove number is 0 (it counts from 1); read as 1");
      start.back() = '1';
    }
  }
  try {
    e.set_position(start);
  } catch (const PositionError& pe) {
    fail_at(start_tag ? start_tag->line : first_line,
            start_tag ? start_tag->value_column + static_cast<uint32_t>(pe.column) : 1, 0, start,
            "bad-position", std::string("bad start position: ") + pe.what());
    return;
  }
  // The moves, variations included: a variation replaces the move before it. The path from
  // the start is kept so that a null move (played by rewriting the position text, which
  // drops the engine's history) can be taken back by replaying the path.
  ActionPattern pattern;
  const std::vector<StepPat>& pats = pattern.steps;
  const Token* result_tok = nullptr;
  size_t i = 0;
  const auto& toks = g.tokens;
  Ctx ctx{e, proto, legal_, infos_};
  TargetedActions* const targeted = dynamic_cast<TargetedActions*>(&e);  // targeted.hpp
  struct Entry {
    bool null = false;
    Action action{};
  };
  std::vector<Entry> played_path;
  size_t undoable = 0;  // entries at the end of the played_path the engine can undo
  const std::string start_text = start;
  // The side to move passes: the position text with the other side to move and no en-passant
  // square (a FEN-like text); "" with an error message when the variant's text has no such field.
  auto null_position = [&](std::string& error) -> std::string {
    std::vector<std::string> f = field_strings(e.position());
    if (f.size() < 2 || (f[1] != "w" && f[1] != "b")) {
      error = "a null move cannot be played in " + proto.variant +
              " (its position text has no side-to-move field)";
      return "";
    }
    const bool black = f[1] == "b";
    f[1] = black ? "w" : "b";
    if (f.size() >= 4 && f[3].size() == 2 && is_lower(f[3][0]) && is_digit(f[3][1])) f[3] = "-";
    if (f.size() == 6 && !f[4].empty() && std::all_of(f[4].begin(), f[4].end(), is_digit))
      f[4] = std::to_string(std::stoul(f[4].substr(0, 6)) + 1);
    if (f.size() == 6 && black && !f[5].empty() && std::all_of(f[5].begin(), f[5].end(), is_digit))
      f[5] = std::to_string(std::stoul(f[5].substr(0, 6)) + 1);
    return join_fields(f);
  };
  auto play = [&](const Entry& en) {
    if (en.null) {
      std::string err;
      e.set_position(null_position(err));
      undoable = 0;
    } else {
      e.apply(en.action);
      ++undoable;
    }
    played_path.push_back(en);
  };
  auto take_back = [&] {
    if (undoable > 0) {
      e.undo();
      --undoable;
      played_path.pop_back();
      return;
    }
    played_path.pop_back();
    std::vector<Entry> again;
    again.swap(played_path);
    e.set_position(start_text);
    undoable = 0;
    for (const Entry& en : again) play(en);
  };
  // Past the rest of a variation whose fault is recorded (the main line goes on).
  auto skip_variation = [&] {
    int d = 0;
    while (i < toks.size()) {
      const Token& t = toks[i++];
      if (t.kind == TokKind::Open) ++d;
      if (t.kind == TokKind::Close && d-- == 0) return;
    }
  };
  // Matches an action text against the legal actions: how many match, the first and the rest.
  std::vector<size_t> matches;
  // match_parsed: the same for the text whose pattern `pattern` holds already.
  auto match_parsed = [&](size_t& found) -> size_t {
    matches.clear();
    found = SIZE_MAX;
    size_t count = 0;
    // Later steps, drawn texts and pass labels are not in the brief: check them on the description.
    const bool check_described =
        pats.size() > 1 || pats[0].kind == StepKind::Chance || pats[0].kind == StepKind::Pass;
    const StepPat& p0 = pats[0];
    const size_t nsteps = pats.size();
    // A plain move names its destination: most actions differ there.
    const bool by_to = p0.kind == StepKind::Move && p0.castle == Castle::None && !p0.full;
    for (size_t k = 0, n = legal_.size(); k < n; ++k) {
      const StepBrief& b = briefs_[k];
      if ((by_to && b.to != p0.to) || b.steps != nsteps || !step_matches(p0, b)) continue;
      if (check_described && !action_matches(pats, e.describe(legal_[k]), pats.size(), false)) continue;
      if (count == 0) found = k;
      ++count;
      if (count > 1) matches.push_back(k);
    }
    return count;
  };
  auto match = [&](std::string_view text, size_t& found) -> size_t {
    if (parse_action_pattern(text, pattern)) return match_parsed(found);
    matches.clear();
    found = SIZE_MAX;
    return SIZE_MAX;
  };
  // Returns false when a fault in the main line stops the walk.
  auto walk = [&](auto& self, int ply, int depth, bool variation) -> bool {
    size_t played = 0;
    bool have_last = false;
    Entry last{};
    auto unwind = [&] {
      for (; played > 0; --played) take_back();
    };
    // A fault: in a variation the rest of it is skipped, in the main line the walk stops.
    auto give_up = [&]() -> bool {
      if (!variation) return false;
      skip_variation();
      unwind();
      return true;
    };
    while (i < toks.size()) {
      const Token& t = toks[i];
      if (t.kind == TokKind::Close) {
        ++i;
        if (variation) {
          unwind();
          return true;
        }
        continue;
      }
      if (t.kind == TokKind::Result) {
        if (!variation) result_tok = &t;
        ++i;
        continue;
      }
      if (t.kind == TokKind::Open) {
        if (!have_last) {
          fail_at(t.line, t.column, ply + 1, "(", "syntax", "a variation must follow the move it replaces")
              .in_variation = variation;
          return false;
        }
        if (depth >= kMaxNesting) {
          fail_at(t.line, t.column, ply, "(", "limit",
                  "variations nested more than " + std::to_string(kMaxNesting) +
                      " deep (the nesting limit): this one is not walked");
          return false;
        }
        take_back();
        ++i;
        if (!self(self, ply - 1, depth + 1, true)) return false;
        play(last);
        continue;
      }
      ++i;
      if (t.kind == TokKind::Null) {
        // A null move: the side to move passes (analysis, not play: a warning in the main line).
        std::string why;
        std::string pos = null_position(why);
        if (why.empty() && e.side_in_check()) why = "a null move while in check";
        if (why.empty()) {
          try {
            Entry en;
            en.null = true;
            play(en);
          } catch (const PositionError& pe) {
            why = std::string("the position after the null move is not legal (") + pe.what() + ")";
          }
        }
        if (!why.empty()) {
          fail_at(t.line, t.column, ply + 1, t.text, "null-move", why).in_variation = variation;
          if (give_up()) return true;
          return false;
        }
        if (!variation)
          warn_at(t.line, t.column, ply + 1, t.text, "null-move",
                  "a null move in the main line (the side to move passes)");
        last = played_path.back();
        have_last = true;
        ++played;
        ++ply;
        if (!variation) r.plies = ply;
        continue;
      }
      // A move. The fast played_path: the brief of every legal action, the full description only
      // of those whose first step the text matches (and of all of them to explain a fault).
      auto brief_all = [&] {
        briefs_.resize(legal_.size());
        static_assert(std::is_trivially_destructible_v<StepBrief>);
        // Built in place (a trivially destructible prvalue): brief() writes straight into the
        // vector, with no copy through a temporary that stalls on store forwarding.
        for (size_t k = 0; k < legal_.size(); ++k) ::new (&briefs_[k]) StepBrief(e.brief(legal_[k]));
      };
      size_t found = SIZE_MAX;
      size_t count = SIZE_MAX;
      // A plain move names its destination, and match() keeps only the actions whose brief
      // names it: the engine may list those alone (Engine::legal_actions_to, in the same
      // order). Only a unique match is taken from that list; anything else (no match, an
      // ambiguity, a lower-case letter, a fault to explain) is judged on the full list below,
      // so every output is the same as without it.
      bool resolved = false;
      const bool parsed = parse_action_pattern(t.text, pattern);  // once: match_parsed reads it
      if (parsed && !pats.empty() && pats[0].kind == StepKind::Move && pats[0].castle == Castle::None &&
          !pats[0].full && targeted && targeted->legal_actions_to(pats[0].to, legal_)) {
        brief_all();
        count = match_parsed(found);
        resolved = count == 1;
      }
      if (!resolved) {
        legal_.clear();
        e.legal_actions(legal_);
        brief_all();
        if (parsed) {
          count = match_parsed(found);
        } else {
          matches.clear();
          found = count = SIZE_MAX;
        }
      }
      bool described = false;
      auto describe_all = [&] {
        if (described) return;
        infos_.resize(legal_.size());
        for (size_t k = 0; k < legal_.size(); ++k) infos_[k] = e.describe(legal_[k]);
        described = true;
      };
      auto fault = [&](std::string kind, std::string reason) -> Finding& {
        Finding& f = fail_at(t.line, t.column, ply + 1, t.text, std::move(kind), std::move(reason));
        f.in_variation = variation;
        return f;
      };
      // A piece letter in lower case (`nf3`), read as the capital when that is the only reading.
      if ((count == 0 || count == SIZE_MAX) && !t.text.empty() && is_lower(t.text[0]) &&
          proto.piece_names.count(upper(t.text[0]))) {
        std::string up(t.text);
        up[0] = upper(up[0]);
        size_t f2 = SIZE_MAX;
        if (match(up, f2) == 1) {
          count = 1;
          found = f2;
          warn_at(t.line, t.column, ply + 1, t.text, "lowercase-piece",
                  "piece letter in lower case, read as `" + up + "`")
              .in_variation = variation;
        } else {
          match(t.text, found);  // the pattern of the text as written, for the diagnosis
        }
      }
      if (count == SIZE_MAX) {
        describe_all();
        Finding& f = fault("unreadable",
                           "`" + std::string(t.text) + "` is not an action in SAN or the canonical notation");
        std::vector<size_t> all(legal_.size());
        for (size_t k = 0; k < all.size(); ++k) all[k] = k;
        f.alternatives = nearest(ctx, {}, 0, all);
        if (give_up()) return true;
        return false;
      }
      if (count != 1) describe_all();
      if (count == 0) {
        Finding& f = fault("illegal", "");
        diagnose(ctx, pats, f);
        if (give_up()) return true;
        return false;
      }
      if (count > 1) {
        std::vector<size_t> all_matches = matches;
        all_matches.insert(all_matches.begin(), found);
        Finding& f = fault("ambiguous", "ambiguous: " + std::to_string(count) + " legal actions match `" +
                                            std::string(t.text) + "`");
        for (size_t k = 0; k < all_matches.size() && k < 5; ++k)
          f.alternatives.push_back(uci(infos_[all_matches[k]], e.chess960()));
        if (give_up()) return true;
        return false;
      }
      // The canonical form (`e2e4`, `e7e8q`) writes no marks: none is missing there.
      // (A placement `K@e1` is canonical where the ruleset's SAN writes `pKe1`.)
      const bool marks_expected =
          !(pats[0].kind == StepKind::Move && pats[0].full && !pats[0].piece) &&
          !(pats[0].kind == StepKind::Place && proto.placement_p && t.text.size() > 1 && t.text[1] == '@');
      if (pats[0].kind == StepKind::Move && pats[0].piece == 'P' && !pats[0].full && pats.size() == 1)
        warn_at(t.line, t.column, ply + 1, t.text, "pawn-letter",
                "a pawn move written with `P` (SAN writes none)")
            .in_variation = variation;
      last = Entry{false, legal_[found]};
      have_last = true;
      play(last);
      ++played;
      ++ply;
      if (!variation) r.plies = ply;
      // The marks: `#` claims checkmate, `+` check (a win by another rule, such as a midline
      // invasion, carries no `#`: notation.cpp's san writes the same marks).
      const bool check = e.side_in_check();
      if (t.mate_mark || (check && (marks_expected || t.check_mark))) {
        Status st = e.status();
        const bool mate = st.end == Termination::Checkmate;
        if (t.mate_mark && !mate && st.result == Result::Ongoing) {
          fault("false-mate", "marked `#` but the position after it is not checkmate" +
                                  std::string(st.in_check ? " (only check)" : " (not even check)"))
              .ply = ply;
          if (give_up()) return true;
          return false;
        }
        if (t.mate_mark && !mate)
          warn_at(
              t.line, t.column, ply, t.text, "wrong-mark",
              "marked `#` but the game ends by " + st.reason + ", not checkmate (such a win carries no `#`)")
              .in_variation = variation;
        else if (!t.mate_mark && mate)
          warn_at(t.line, t.column, ply, t.text, "missing-mate-mark",
                  std::string("checkmate written without `#`") + (t.check_mark ? " (with `+`)" : ""))
              .in_variation = variation;
        else if (!t.mate_mark && !t.check_mark && check)
          warn_at(t.line, t.column, ply, t.text, "missing-check-mark", "a check written without `+`")
              .in_variation = variation;
      } else if (t.check_mark) {
        warn_at(t.line, t.column, ply, t.text, "false-check", "marked `+` but it gives no check")
            .in_variation = variation;
      }
    }
    if (variation) unwind();
    return true;
  };
  if (!walk(walk, 0, 0, false)) return;
  if (!g.error.empty()) return;  // the text is cut short: the result cannot be judged
  // The result against the final position.
  const Tag* res_tag = tag_at("Result");
  std::string tag_res = res_tag ? trim(res_tag->value) : "";
  if (tag_res == "1/2" || tag_res == "\xc2\xbd-\xc2\xbd") tag_res = "1/2-1/2";
  if (!is_result(tag_res)) tag_res.clear();
  std::string text_res = result_tok ? std::string(result_tok->text) : "";
  uint32_t rl = result_tok ? result_tok->line : res_tag ? res_tag->line : first_line;
  uint32_t rc = result_tok ? result_tok->column : res_tag ? res_tag->value_column : 1;
  int rply = r.plies + 1;
  if (!tag_res.empty() && !text_res.empty() && tag_res != text_res) {
    fail_at(rl, rc, rply, text_res, "result-mismatch",
            "the Result tag says " + tag_res + " but the movetext ends with " + text_res);
    return;
  }
  std::string claimed = !text_res.empty() ? text_res : !tag_res.empty() ? tag_res : "*";
  Status st = e.status();
  const Tag* term = tag_at("Termination");
  std::string termination = term ? lower(term->value) : "";
  if (st.result != Result::Ongoing) {
    std::string actual = arb::to_string(st.result);
    if (claimed == "*") {
      warn_at(rl, rc, rply, claimed, "unfinished-marked",
              "the game is decided (" + st.reason + ", " + actual + ") but the result is `*`");
    } else if (claimed != actual) {
      fail_at(rl, rc, rply, claimed, "wrong-result",
              "the final position is " + st.reason + ": the result is " + actual + ", not " + claimed);
    }
    return;
  }
  // "mate in 2" (lichess studies, pychess puzzles) states a task, not how the game ended.
  const bool task = termination.find("mate in") != std::string::npos;
  if (!task && termination.find("mate") != std::string::npos &&
      termination.find("stalemate") == std::string::npos) {
    fail_at(term->line, term->value_column, rply, term->value, "false-mate",
            "the Termination tag names mate but the final position is not checkmate");
    return;
  }
  if (claimed == "1/2-1/2") {
    bool rep = termination.find("repetition") != std::string::npos ||
               termination.find("threefold") != std::string::npos;
    bool fifty =
        termination.find("fifty") != std::string::npos || termination.find("50") != std::string::npos;
    if (rep && !st.claim_threefold) {
      fail_at(term->line, term->value_column, rply, claimed, "impossible-draw",
              "a draw by repetition is claimed but the final position has not occurred three times");
    } else if (fifty && !st.claim_fifty) {
      fail_at(term->line, term->value_column, rply, claimed, "impossible-draw",
              "a fifty-move draw is claimed but fifty moves without a capture or pawn move have not passed");
    } else if (!proto.agreement_draws && !st.claim_threefold && !st.claim_fifty) {
      fail_at(rl, rc, rply, claimed, "impossible-draw",
              "a draw is claimed but " + proto.variant +
                  " has no draw by agreement and neither a threefold-repetition nor a fifty-move claim is "
                  "available");
    }
  }
}

void Validator::validate(const ParsedGame& g, const std::string& dir, GameReport& r) {
  uint64_t game = r.game;
  r = GameReport{};
  r.game = game;
  check(g, dir, r);
  // The text's own problems, and the file's form.
  for (const auto& is : g.issues) {
    Finding f;
    f.severity = is.error ? Severity::Error : Severity::Warning;
    f.code = is.code;
    f.line = is.line;
    f.column = is.column;
    f.reason = is.message;
    // The ply it stands at: the main-line actions before it, plus one.
    int depth = 0;
    for (const Token& t : g.tokens) {
      if (t.line > is.line || (t.line == is.line && t.column >= is.column)) break;
      if (t.kind == TokKind::Open) ++depth;
      if (t.kind == TokKind::Close) --depth;
      if (depth == 0 && (t.kind == TokKind::Move || t.kind == TokKind::Null)) ++f.ply;
    }
    ++f.ply;
    r.findings.push_back(std::move(f));
  }
  uint32_t first = g.tags.empty() ? (g.tokens.empty() ? 1 : g.tokens[0].line) : g.tags[0].line;
  if (g.bom)
    r.findings.push_back(
        Finding{Severity::Warning, "bom", 1, 1, 0, "", "a UTF-8 byte-order mark", false, {}});
  if (g.cut_line)
    r.findings.push_back(Finding{Severity::Warning,
                                 "missing-result",
                                 g.cut_line,
                                 1,
                                 r.plies + 1,
                                 "",
                                 "the game has no result (1-0, 0-1, 1/2-1/2, *) before the next game's tags",
                                 false,
                                 {}});
  if (g.crlf)
    r.findings.push_back(
        Finding{Severity::Warning, "crlf", first, 1, 0, "", "CRLF (or CR) line ends", false, {}});
  std::stable_sort(r.findings.begin(), r.findings.end(), [](const Finding& a, const Finding& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  const Finding* err = nullptr;
  for (Finding& f : r.findings) {
    if (strict_) f.severity = Severity::Error;
    (f.severity == Severity::Error ? r.errors : r.warnings)++;
    if (!err && f.severity == Severity::Error) err = &f;
  }
  r.valid = err == nullptr;
  if (err) {
    r.line = err->line;
    r.column = err->column;
    r.ply = err->ply;
    r.move = err->move;
    r.kind = err->code;
    r.reason = err->reason;
    r.in_variation = err->in_variation;
    r.alternatives = err->alternatives;
  }
}

}  // namespace arb::records
