// What the Fairy-Stockfish tests share: where each engine is, skipping when it is missing,
// and the adapter for a catalogue ruleset as `arbiter fuzz` opens it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "arbiter/lang/compile.hpp"
#include "helpers.hpp"
#include "registry/engines.hpp"

namespace fsf_testing {

// Debian's Fairy-Stockfish 11.1.
inline const char* const kDebian = "/usr/games/fairy-stockfish";

// $ARBITER_FSF_WASM_DIR, else the build folder (CI: npm install --prefix build).
inline std::string wasm_dir() {
  const char* env = std::getenv("ARBITER_FSF_WASM_DIR");
  if (env && *env) return env;
  return std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path().string();
}

// node and the npm build of current Fairy-Stockfish are both there.
inline bool have_wasm() {
  return std::system("node --version > /dev/null 2>&1") == 0 &&
         std::filesystem::exists(wasm_dir() + "/node_modules/fairy-stockfish-nnue.wasm/stockfish.js");
}

// The adapter for catalogue ruleset NAME on `engine` (a path, or wasm:DIR), as fuzz opens it.
// A ruleset the registry cannot open fails the test (and throws, so that no caller goes on).
inline std::unique_ptr<arb::Engine> fsf_for(const std::string& name, const std::string& engine) {
  arb::registry::EngineSpec spec;
  spec.kind = arb::registry::EngineKind::FairyStockfish;
  spec.rules = testing_helpers::source_path("rulesets/fsf/" + name + ".rules");
  spec.fsf_variant = name;
  spec.fsf_engine = engine;
  arb::lang::Diagnostics d;
  auto o = arb::registry::open_engine(spec, d);
  EXPECT_TRUE(o.engine) << d.render();
  if (!o.engine) throw std::runtime_error("cannot open Fairy-Stockfish for " + name);
  return std::move(o.engine);
}

// The status after `moves` from `fen`: the compiled ruleset's, or (with `engine`) the
// Fairy-Stockfish adapter's, which asks a mate after the moves that led to it.
inline arb::Status after(const std::string& name, const std::string& fen,
                         const std::vector<std::string>& moves, const std::string& engine = "") {
  auto e = engine.empty() ? testing_helpers::catalogue_at(name, fen) : fsf_for(name, engine);
  if (!engine.empty()) e->set_position(testing_helpers::catalogue_at(name, fen)->position());
  for (const auto& m : moves) e->apply(testing_helpers::find_action(*e, m));
  return e->status();
}

}  // namespace fsf_testing

#define REQUIRE_DEBIAN()                       \
  if (access(fsf_testing::kDebian, X_OK) != 0) \
  GTEST_SKIP() << fsf_testing::kDebian << " is not installed (apt-get install fairy-stockfish)"

#define REQUIRE_WASM()                                                                                  \
  if (!fsf_testing::have_wasm())                                                                        \
  GTEST_SKIP() << "node or the npm package fairy-stockfish-nnue.wasm under " << fsf_testing::wasm_dir() \
               << " is missing (npm install --prefix " << fsf_testing::wasm_dir()                       \
               << " fairy-stockfish-nnue.wasm, or set ARBITER_FSF_WASM_DIR)"
