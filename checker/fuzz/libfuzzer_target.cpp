// libFuzzer target of the differential checker, so that a fuzzing service (ClusterFuzzLite,
// OSS-Fuzz) can run it with coverage guidance. The input bytes are a choice sequence:
//
//   choice 1        which variant: the registry's bundled rulesets that compile and have a
//                   reference engine, in name order (chess, chess2, chessembly, chessme,
//                   nostress today)
//   choice 2        which configuration of it: every combination of the values of its
//                   `one-of` options (Chess 2's 36 army pairs, No Stress Chess's four
//                   levels), in the order the options and their values are declared
//   byte 2          a prefix length P (0..31): P plies played at random (seeded by bytes
//                   3-4) on the compiled engine alone; the reference engine then loads the
//                   position text reached, so the compared game starts deep in a game
//   then, per ply   one byte: >= 0xE0 mutates the position (the next choices pick the
//                   mutation, as mutate.hpp describes), anything else plays an action
//                   whose index is the next choice; at most kMaxPlies plies per input
//
// Engines are built once per process (LLVMFuzzerInitialize) and reset with set_position.
// The work per input is bounded (P cheap plies, at most kMaxPlies plies on both engines,
// one compared node at the end), so that the target runs over 1,000 inputs per second
// under AddressSanitizer (README, Fuzzing, has the figures): ChessMe inputs start with
// empty hands (narrow nodes until a mutation gives tiles back), b's action is matched by
// its squares before its text is written, an input run before is not run again, and the
// reference engines and the checker's code are linked without coverage instrumentation
// (checker/CMakeLists.txt: libFuzzer's per-feature bookkeeping cost more than the engines).
//
// A choice among n options reads one byte (two when n > 256, ...) modulo n; an input that
// runs out ends the game. At every node the compiled generator and the reference engine
// are compared (legal actions, status, position text); a divergence is printed, shrunk,
// and aborts with __builtin_trap() so that the service records the input.
//
// Build: cmake -DARBITER_FUZZ=ON with CC=clang CXX=clang++ (see checker/CMakeLists.txt),
// then `cmake --build DIR --target arbiter_libfuzzer`. Under ClusterFuzzLite or OSS-Fuzz the
// build script runs the same with the service's CC, CXX, CXXFLAGS and LIB_FUZZING_ENGINE,
// and copies the binary and rulesets/ into $OUT.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "arbiter/chessme_text.hpp"
#include "arbiter/lang/compile.hpp"
#include "arbiter/notation.hpp"
#include "fuzz/fuzz.hpp"
#include "fuzz/mutate.hpp"
#include "registry/engines.hpp"
#include "registry/variants.hpp"

namespace {

struct Target {
  std::string variant;
  std::map<std::string, std::string> options;  // the configuration (`one-of` option values)
  arb::registry::EngineMaker left, right;      // the compiled engine and the reference (open_engine)
  // Where inputs start: the start position, for ChessMe with both hands emptied, so that
  // nodes stay narrow (a turn with a placement multiplies the actions by the hand's tiles
  // and the squares it may go to: 600 actions instead of 30, each generated, described and
  // compared on both engines) unless an input's mutations put tiles in a hand.
  std::string start, alphabet;
  // Reused from input to input (set_position starts afresh): the two engines compared and
  // two probes that try a mutated text first.
  std::unique_ptr<arb::Engine> a, b, probe_a, probe_b;
};

// Inputs already run (64-bit hashes): libFuzzer's mutations often give back an input it
// ran before; a run is deterministic (engines are reset by set_position), so an input seen
// once is not run again. Bounded: cleared when full.
std::unordered_set<uint64_t>& seen_inputs() {
  static std::unordered_set<uint64_t> s;
  return s;
}
constexpr size_t kMaxSeen = 1 << 20;

uint64_t fnv1a(const uint8_t* data, size_t size) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ULL;
  return h ^ size;
}

// The configurations of each variant (targets()[variant][configuration]).
std::vector<std::vector<Target>>& targets() {
  static std::vector<std::vector<Target>> t;
  return t;
}

// Every combination of the values of the `one-of` options a compiled ruleset declares.
std::vector<std::map<std::string, std::string>> configurations(const arb::lang::Compiled& c) {
  std::vector<std::map<std::string, std::string>> out = {{}};
  if (!c.model) return out;
  for (const arb::lang::OptionDef& o : c.model->options) {
    if (o.choices.empty()) continue;
    std::vector<std::map<std::string, std::string>> next;
    for (const auto& partial : out)
      for (const std::string& v : o.choices) {
        auto m = partial;
        m[o.name] = v;
        next.push_back(std::move(m));
      }
    out = std::move(next);
  }
  return out;
}

// Choices read from the input bytes.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool done() const { return pos_ >= size_; }
  uint8_t byte() { return done() ? 0 : data_[pos_++]; }
  uint64_t choose(uint64_t n) {
    if (n <= 1) return 0;
    uint64_t v = 0;
    for (uint64_t span = 1; span < n && span < (uint64_t{1} << 56); span <<= 8) v = (v << 8) | byte();
    return v % n;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

bool accepts(arb::Engine& e, const std::string& text) {
  try {
    e.set_position(text);
    return true;
  } catch (const arb::PositionError&) {
    return false;
  }
}

[[noreturn]] void report(const Target& t, const std::string& origin, const std::vector<std::string>& played,
                         const arb::fuzz::Divergence& found) {
  std::string actions;
  for (const auto& a : played) actions += (actions.empty() ? "" : " ") + a;
  arb::fuzz::EngineFactory left = t.left, right = t.right;
  arb::fuzz::Divergence d = found;
  {
    auto a = left(), b = right();
    if (auto rep = arb::fuzz::reproduce(*a, *b, origin, actions)) d = *rep;
  }
  d = arb::fuzz::shrink(left, right, d);
  std::string config;
  for (const auto& [k, v] : t.options) config += " " + k + "=" + v;
  std::fprintf(stderr,
               "DIVERGENCE in %s%s (%s)\n  game from: %s\n  actions:   %s\n  shrunk:    %s\n  after:     %s\n"
               "  compiled:  %s\n  reference: %s\n  diff:      %s\n",
               t.variant.c_str(), config.c_str(), d.what.c_str(), origin.c_str(), actions.c_str(),
               d.position.c_str(), d.action.c_str(), d.left.c_str(), d.right.c_str(), d.diff.c_str());
  __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  for (const arb::registry::Variant& v : arb::registry::bundled()) {
    if (!v.reference) continue;
    arb::lang::Diagnostics diags;
    arb::lang::Compiled base = arb::registry::compile(v.ruleset.string(), {}, diags);
    if (!base.program) continue;
    std::vector<Target> configs;
    for (const auto& sets : configurations(base)) {
      // Both engines opened as every engine is: the compiled one, and the reference with the
      // same options (a configuration the reference does not take is skipped).
      arb::registry::EngineSpec spec;
      spec.rules = v.ruleset;
      spec.options = sets;
      arb::registry::OpenedEngine compiled, reference;
      try {
        arb::lang::Diagnostics d;
        compiled = arb::registry::open_engine(spec, d);
        spec.kind = arb::registry::EngineKind::Reference;
        reference = arb::registry::open_engine(spec, d);
      } catch (const std::invalid_argument&) {
        continue;
      }
      if (!compiled.engine || !reference.engine) continue;
      Target t;
      t.variant = v.name;
      t.options = sets;
      t.left = compiled.make;
      t.right = reference.make;
      t.a = std::move(compiled.engine);
      t.b = std::move(reference.engine);
      t.probe_a = t.left();
      t.probe_b = t.right();
      t.start = t.a->position();
      t.alphabet = arb::fuzz::piece_alphabet(t.start);
      if (arb::fuzz::detect_format(t.start) == arb::fuzz::TextFormat::ChessMe) {
        arb::ChessMePosition p = arb::parse_chessme(t.start);
        p.hand[0].clear();
        p.hand[1].clear();
        t.start = arb::format_chessme(p);
      }
      // Both engines must read the start (checked once here, not per input).
      if (!accepts(*t.a, t.start) || !accepts(*t.b, t.start))
        report(t, t.start, {}, {t.start, "", "accepts", "", "", "", 0, ""});
      configs.push_back(std::move(t));
    }
    if (configs.empty()) continue;
    std::fprintf(stderr, "libfuzzer target: %s, %zu configuration%s\n", v.name.c_str(), configs.size(),
                 configs.size() == 1 ? "" : "s");
    targets().push_back(std::move(configs));
  }
  if (targets().empty()) {
    std::fprintf(stderr, "libfuzzer target: no bundled ruleset compiles in %s\n",
                 arb::registry::rulesets_dir().c_str());
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (seen_inputs().size() >= kMaxSeen) seen_inputs().clear();
  if (!seen_inputs().insert(fnv1a(data, size)).second) return 0;
  Bytes in(data, size);
  std::vector<Target>& configs = targets()[in.choose(targets().size())];
  Target& t = configs[in.choose(configs.size())];
  arb::Engine *a = t.a.get(), *b = t.b.get(), *probe_a = t.probe_a.get(), *probe_b = t.probe_b.get();
  a->set_position(t.start);
  arb::fuzz::Choose choose = [&in](uint64_t n) { return in.choose(n); };
  std::string origin = t.start;
  std::vector<std::string> played;
  std::vector<arb::Action> acts, bacts;
  // The random prefix.
  const int prefix = in.byte() & 31;
  uint64_t state = (uint64_t{in.byte()} << 8 | in.byte()) * 0x9E3779B97F4A7C15ULL + 1;
  for (int ply = 0; ply < prefix; ++ply) {
    a->legal_actions(acts);
    if (acts.empty()) break;
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    a->apply(acts[state % acts.size()]);
  }
  if (prefix > 0) {
    origin = a->position();
    a->set_position(origin);  // a fresh history, like b's
  }
  try {
    b->set_position(origin);
  } catch (const arb::PositionError& e) {
    report(t, origin, {}, {origin, "", "accepts", "accepted", e.what(), "", 0, ""});
  }
  // The nodes along the way are compared by the inputs that stop there (libFuzzer keeps
  // the prefixes that reach new coverage); this input compares its last node.
  constexpr int kMaxPlies = 8;
  for (int ply = 0; ply < kMaxPlies && !in.done(); ++ply) {
    if (in.byte() >= 0xE0) {
      auto m = arb::fuzz::mutate_position(a->position(), t.alphabet, choose);
      if (m && accepts(*probe_a, *m) && accepts(*probe_b, *m)) {
        a->set_position(*m);
        b->set_position(*m);
        origin = *m;
        played.clear();
      }
      continue;
    }
    a->legal_actions(acts);
    if (acts.empty() || a->status().result != arb::Result::Ongoing) break;
    const arb::Action& pick = acts[in.choose(acts.size())];
    std::string text = arb::uci(a->describe(pick), true);
    // b's action with the same text; only candidates from and to the same squares are
    // written out (the text of every action of a wide node was most of an input's cost).
    arb::ActionInfo info = a->describe(pick);
    b->legal_actions(bacts);
    for (const arb::Action& x : bacts) {
      arb::ActionInfo bi = b->describe(x);
      if (bi.steps.size() != info.steps.size() ||
          (!bi.steps.empty() &&
           (bi.steps[0].from != info.steps[0].from || bi.steps[0].to != info.steps[0].to)))
        continue;
      if (arb::uci(bi, true) == text) {
        b->apply(x);
        break;
      }
    }
    a->apply(pick);
    played.push_back(text);
  }
  if (auto d = arb::fuzz::compare_node(*a, *b)) report(t, origin, played, *d);
  return 0;
}
