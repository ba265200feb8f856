#include "fsf_variant.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "arbiter/lang/export_fsf.hpp"
#include "common.hpp"
#include "fsf/fairy_stockfish.hpp"

namespace arb::cli {

namespace {

// Writes `text` to a new file in the temporary folder and returns its path.
std::string write_temp_ini(const std::string& text) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/arbiter-fsf-XXXXXX.ini";
  int fd = mkstemps(pattern.data(), 4);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file in " + pattern);
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!ok) {
    std::remove(pattern.c_str());
    throw std::runtime_error("cannot write " + pattern);
  }
  return pattern;
}

}  // namespace

FsfVariant::FsfVariant(const arb::lang::Model& m, const std::string& rules_path,
                       const std::string& fsf_engine) {
  if (!m.fsf_variant.empty()) {
    variant_ = m.fsf_variant;
    return;
  }
  bool wasm = false;
  try {
    wasm = arb::fsf::engine_command(fsf_engine).wasm;
  } catch (const arb::fsf::EngineMissing& e) {
    throw UsageError(e.what());
  }
  const auto dialect = wasm ? arb::lang::FsfDialect::Current : arb::lang::FsfDialect::Fsf11;
  arb::lang::Diagnostics ed;
  const std::string section = m.name + "-arbiter";
  auto ini = arb::lang::export_fsf(m, dialect, section, ed);
  if (!ini) {
    std::cerr << ed.render();
    throw UsageError(rules_path + " names no Fairy-Stockfish variant (`fairy-stockfish NAME`) and " +
                     "Fairy-Stockfish (" + arb::lang::to_string(dialect) +
                     ") cannot play it as exported; give --fsf-variant NAME");
  }
  path_ = write_temp_ini(*ini);
  variant_ = section;
  exported_ = "[" + section + "] (" + arb::lang::to_string(dialect) + ")";
}

FsfVariant::~FsfVariant() {
  if (!exported_.empty()) std::remove(path_.c_str());
}

}  // namespace arb::cli
