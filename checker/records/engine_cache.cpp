// The engine that plays a record's game (the compiled generator, else the variant's
// reference engine) and the process-wide cache of them and of the rulesets' record facts.
#include <filesystem>

#include "registry/catalogue.hpp"
#include "registry/open.hpp"
#include "validate.hpp"

namespace arb::records {

namespace fs = std::filesystem;

std::string RecordEngine::name(char letter) const {
  auto it = piece_names.find(static_cast<char>(std::toupper(static_cast<unsigned char>(letter))));
  return it == piece_names.end() ? std::string("piece ") + letter : it->second;
}

RecordEngine make_record_engine(const std::string& path, const std::map<std::string, std::string>& options) {
  RecordEngine r;
  // The compiled generator, opened as every engine is (registry::open_engine); a ruleset it
  // does not execute (yet) is played by the reference engine of the variant it declares.
  registry::EngineSpec spec;
  spec.rules = path;
  spec.options = options;
  registry::Opened o;
  try {
    o = registry::open(spec);
    if (!o.engine) {
      spec.kind = registry::EngineKind::Reference;
      o = registry::open(spec);
      if (!o.engine && !o.facts) {
        r.error = path + ": the ruleset does not load (" + std::to_string(o.errors) + " error(s))";
        return r;
      }
      if (!o.engine) {
        r.error = "variant `" + o.variant + "` neither compiles nor has a reference engine";
        return r;
      }
    }
  } catch (const registry::OpenError& ex) {
    // The kind of fault reads the prefix: "option: " makes a bad-option fault.
    r.error = ex.bad_option ? std::string("option: ") + ex.what() : std::string(ex.what());
    return r;
  } catch (const PositionError& ex) {
    r.error = std::string("start position: ") + ex.what();
    return r;
  } catch (const std::exception& ex) {
    r.error = path + ": " + ex.what();
    return r;
  }
  r.engine = std::move(o.engine);
  r.variant = o.variant;
  if (o.facts) static_cast<registry::RulesetFacts&>(r) = *o.facts;
  r.start = r.engine->position();
  return r;
}

const RecordEngine& EngineCache::get(const std::string& path,
                                     const std::map<std::string, std::string>& options) {
  std::string key = path;
  for (const auto& [k, v] : options) key += "\n" + k + "=" + v;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = cache_.find(key);
  if (it != cache_.end()) return *it->second;
  if (cache_.size() >= kMaxEngines) {
    if (!over_limit_) {
      over_limit_ = std::make_unique<RecordEngine>();
      over_limit_->error =
          "limit: more than " + std::to_string(kMaxEngines) +
          " distinct rulesets and options in one run (the engine limit); validate such records "
          "in several runs";
    }
    return *over_limit_;
  }
  auto re = std::make_unique<RecordEngine>(make_record_engine(path, options));
  return *cache_.emplace(key, std::move(re)).first->second;
}

std::string EngineCache::ruleset_named(const std::string& variant_tag) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = named_.find(variant_tag);
  if (it != named_.end()) return it->second;
  auto known = registry::by_record_name(variant_tag, rulesets_);
  return named_[variant_tag] = known ? known->ruleset.string() : "";
}

const std::vector<registry::RecordTagMap>& EngineCache::tag_maps(const std::string& ruleset_path) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& slot = tag_maps_[ruleset_path];
  if (!slot) {
    slot = std::make_unique<std::vector<registry::RecordTagMap>>();
    if (auto facts = registry::facts_of(ruleset_path)) *slot = facts->records.tags;
  }
  return *slot;
}

namespace {
// `p` inside folder `root` (both canonical): every component of root starts p.
bool inside(const fs::path& p, const fs::path& root) {
  auto a = root.begin(), b = p.begin();
  for (; a != root.end(); ++a, ++b)
    if (b == p.end() || *a != *b) return false;
  return true;
}
}  // namespace

bool EngineCache::rules_allowed(const fs::path& path, const std::string& dir, std::string& why) const {
  if (any_rules_) return true;
  std::error_code ec;
  fs::path real = fs::weakly_canonical(path, ec);
  if (ec) real = fs::absolute(path, ec).lexically_normal();
  std::vector<fs::path> roots;
  if (!dir.empty()) roots.push_back(dir);
  if (dir.empty()) roots.push_back(fs::current_path(ec));  // standard input: the working folder
  roots.push_back(rulesets_);
  for (const auto& f : registry::ruleset_search_path()) roots.push_back(f);
  for (const auto& r : roots) {
    fs::path root = fs::weakly_canonical(r, ec);
    if (ec || root.empty()) continue;
    if (inside(real, root)) return true;
  }
  why = "the ruleset `" + path.string() + "` is outside the record's folder and the ruleset search path (`" +
        real.string() + "`); `arbiter validate --rules-anywhere` allows it";
  return false;
}

}  // namespace arb::records
