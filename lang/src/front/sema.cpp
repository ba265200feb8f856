// Stage 3: semantic checks. The vocabulary of the language lives here: which keyword may
// stand where, with which arguments, and what it means in the model.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "arbiter/lang/betza.hpp"
#include "arbiter/lang/model.hpp"
#include "arbiter/lang/search_path.hpp"
#include "arbiter/nostress_text.hpp"
#include "arbiter/numbers.hpp"

namespace arb::lang {

const PieceDef* Model::piece(char letter) const {
  for (const auto& p : pieces)
    if (p.letter == letter) return &p;
  return nullptr;
}
const ConstructUse* PieceDef::find(ConstructId id) const {
  for (const auto& u : constructs)
    if (u.id == id) return &u;
  return nullptr;
}
std::vector<const ConstructUse*> Model::all_constructs() const {
  std::vector<const ConstructUse*> out;
  for (const auto& u : constructs) out.push_back(&u);
  for (const auto& p : pieces)
    for (const auto& u : p.constructs) out.push_back(&u);
  return out;
}
const OptionDef* Model::option(const std::string& n) const {
  for (const auto& o : options)
    if (o.name == n) return &o;
  return nullptr;
}

namespace {

const std::vector<std::string> kResults = {"loss", "win", "draw"};

class Checker {
 public:
  Checker(Model& m, Diagnostics& d, const std::map<std::string, std::string>& overrides)
      : m_(m), d_(d), overrides_(overrides) {}

  void top(const std::vector<Stmt>& stmts, bool is_root) {
    for (const Stmt& s : stmts) statement(s, is_root);
  }

  std::set<std::string> used_overrides;

 private:
  Model& m_;
  Diagnostics& d_;
  const std::map<std::string, std::string>& overrides_;

  // argument helpers: values, numbers, ranks, letters, decks and cards, regions.
#include "sema_args.hpp"

  // the construct table's dispatch: scopes, readers, applying a typed use.
#include "sema_dispatch.hpp"

  // the top-level statements: ruleset, options, reserve, `when`, board, piece.
#include "sema_statements.hpp"

  // the blocks' statements: piece, castling, setup, turn, records, end, expect, army.
#include "sema_blocks.hpp"
};

std::string read_file(const std::string& path, bool& ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Post-checks on the finished model: cross references and consistency.
void finish(Model& m, Diagnostics& d) {
  // A parent's `fairy-stockfish NAME` names the parent's game, not this one.
  if (m.fsf_variant_of != m.name) {
    m.fsf_variant.clear();
    m.fsf_loc = Loc{};
  }
  int royals = 0;
  for (const auto& p : m.pieces) {
    if (p.royal) ++royals;
    for (char l : p.promote_to)
      if (!m.piece(l)) d.error(p.promote_loc, std::string("promotion to `") + l + "`, which is no piece");
    if (p.promote_ranks && !m.unbounded && (p.promote_ranks->lo < 1 || p.promote_ranks->hi > m.height))
      d.error(p.promote_loc, "promotion rank off the board");
  }
  if (royals == 0 && m.royal_safe) d.error(m.name_loc, "`royal-safe` but no piece is royal");
  if (m.castling && !m.piece(m.castling_rook))
    d.error(m.castling_loc, std::string("castling rook `") + m.castling_rook + "` is no piece");
  if (m.castling && m.castling_king && !m.piece(m.castling_king))
    d.error(m.castling_loc, std::string("castling king `") + m.castling_king + "` is no piece");
  for (char l : m.reserve)
    if (l != '*' && !m.piece(l)) d.error(m.reserve_loc, std::string("reserve piece `") + l + "` is no piece");
  for (const auto& p : m.pieces)
    if (std::count(m.reserve.begin(), m.reserve.end(), p.letter) > 256)
      d.error(m.reserve_loc, std::string("more than 256 `") + p.letter + "` in a reserve");
  if (m.action_place && m.reserve.empty() && m.setup_kind != SetupKind::Text)
    d.error(m.turn_loc, "`action place` but no `reserve`");
  if (m.place_ranks && !m.unbounded && (m.place_ranks->lo < 1 || m.place_ranks->hi > m.height))
    d.error(m.turn_loc, "placement region off the board");
  if (m.end.empty()) d.error(m.name_loc, "the ruleset has no `end` conditions");
  if (m.title.empty()) m.title = m.name;
}

}  // namespace

std::unique_ptr<Model> load_ruleset(const std::string& path,
                                    const std::map<std::string, std::string>& overrides, Diagnostics& diags,
                                    std::vector<std::unique_ptr<Source>>& sources) {
  // Collect the chain: the file, its parent, the parent's parent...
  std::vector<std::pair<const Source*, std::vector<Stmt>>> chain;
  std::string current = path;
  std::set<std::string> seen;
  Loc from{};
  while (!current.empty()) {
    std::string canon = std::filesystem::weakly_canonical(current).string();
    if (seen.count(canon)) {
      diags.error(from, "`extends` forms a cycle through " + current);
      return nullptr;
    }
    seen.insert(canon);
    // Only regular files of bounded size are read (a parent reached through `extends` that
    // is /dev/zero or a FIFO would read without end).
    std::error_code ec;
    if (!std::filesystem::is_regular_file(current, ec) || ec) {
      diags.error(from, "cannot read ruleset file `" + current + "`: not a regular file");
      return nullptr;
    }
    if (const uintmax_t size = std::filesystem::file_size(current, ec); ec || size > kMaxRulesetBytes) {
      // Named where the limit is crossed: the line and column of the first byte past it.
      std::ifstream in(current, std::ios::binary);
      int line = 1, col = 1;
      char ch;
      for (size_t i = 0; i < kMaxRulesetBytes && in.get(ch); ++i) {
        if (ch == '\n') {
          ++line;
          col = 1;
        } else {
          ++col;
        }
      }
      diags.error(
          from, "cannot read ruleset file `" + current + "`: " + current + ":" + std::to_string(line) + ":" +
                    std::to_string(col) + ": the file passes the limit of " +
                    std::to_string(kMaxRulesetBytes >> 10) + " KiB here (" +
                    (ec ? std::string("unknown size") : std::to_string(size) + " bytes in all") + ")");
      return nullptr;
    }
    bool ok = false;
    std::string text = read_file(current, ok);
    if (!ok || std::filesystem::is_directory(current)) {
      diags.error(from, "cannot read ruleset file `" + current + "`");
      return nullptr;
    }
    sources.push_back(std::make_unique<Source>(current, text));
    const Source* src = sources.back().get();
    std::vector<Stmt> stmts = parse(*src, diags);
    std::string parent;
    bool has_header = false;
    for (const Stmt& s : stmts) {
      if (s.keyword != "ruleset") continue;
      if (has_header) diags.error(s.loc, "a second `ruleset` statement", "one file holds one ruleset");
      has_header = true;
      if (s.args.size() >= 3 && s.args[1].is("extends")) {
        parent = s.args[2].text;
        from = s.args[2].loc;
      } else if (s.args.size() != 1) {
        diags.error(s.loc, "expected `ruleset NAME` or `ruleset NAME extends PARENT`");
      }
    }
    if (!has_header) diags.error(Loc{src, 1, 1, 1}, "the file does not start with `ruleset NAME`");
    chain.push_back({src, std::move(stmts)});
    if (parent.empty()) {
      current.clear();
    } else if (parent.find('/') != std::string::npos) {
      // A path relative to this file's folder (`extends "../../rulesets/chess"`).
      current = (std::filesystem::path(current).parent_path() / (parent + ".rules")).string();
      if (!std::filesystem::exists(current)) {
        diags.error(from, "cannot find the parent ruleset `" + parent + "` (looked for " + current + ")");
        return nullptr;
      }
    } else {
      // A name: this file's folder, then the search path (search_path.hpp).
      std::vector<std::filesystem::path> looked;
      std::filesystem::path here = std::filesystem::path(current).parent_path();
      if (here.empty()) here = ".";
      auto found = find_ruleset(parent, here, &looked);
      if (!found) {
        std::string where;
        for (const auto& d : looked) where += (where.empty() ? "" : ", ") + d.string();
        diags.error(from,
                    "cannot find the parent ruleset `" + parent + "` (looked for " + parent + ".rules in " +
                        where + ")",
                    "put it beside this file, or name its folder in ARBITER_RULESETS (colon-separated)");
        return nullptr;
      }
      current = found->string();
    }
  }
  auto model = std::make_unique<Model>();
  Checker checker(*model, diags, overrides);
  for (size_t i = chain.size(); i-- > 0;) {
    bool root = i == 0;
    checker.top(chain[i].second, true);
    if (!root) {
      for (const Stmt& s : chain[i].second)
        if (s.keyword == "ruleset" && !s.args.empty())
          model->lineage.insert(model->lineage.begin(), s.args[0].text);
      model->expects.clear();  // a parent's expectations are about the parent
    }
  }
  for (const auto& [k, v] : overrides)
    if (!checker.used_overrides.count(k)) {
      std::vector<std::string> names;
      for (const auto& o : model->options) names.push_back(o.name);
      diags.error(Loc{}, "--set " + k + "=" + v + ": the ruleset has no option `" + k + "`",
                  names.empty() ? "it declares no `option`" : did_you_mean_or_list(k, names));
    }
  if (!model->name_loc.src && !chain.empty()) model->name_loc = Loc{chain.front().first, 1, 1, 1};
  finish(*model, diags);
  if (diags.has_errors()) return nullptr;
  return model;
}

}  // namespace arb::lang
