// The Fairy-Stockfish variant a ruleset is compared with, for `fuzz`, `diff` and `mutate`
// `--against fairy-stockfish` without --fsf-variant: the variant the ruleset says it equals
// (`fairy-stockfish NAME`), else the ruleset exported as a variants.ini section for the
// engine that runs (11.1's predefined pieces, or current Fairy-Stockfish's Betza), written
// to a temporary file that lives as long as this object.
#pragma once

#include <memory>
#include <string>

#include "arbiter/lang/model.hpp"

namespace arb::cli {

class FsfVariant {
 public:
  // Throws UsageError (with the exporter's located diagnostics on standard error) when the
  // ruleset names no variant and Fairy-Stockfish cannot play it as exported, or when the
  // engine `fsf_engine` is missing.
  FsfVariant(const arb::lang::Model& m, const std::string& rules_path, const std::string& fsf_engine);
  ~FsfVariant();
  FsfVariant(const FsfVariant&) = delete;
  FsfVariant& operator=(const FsfVariant&) = delete;

  const std::string& variant() const { return variant_; }    // UCI_Variant
  const std::string& variant_path() const { return path_; }  // VariantPath ("": none)
  // Set when the ruleset was exported: "[NAME] (dialect)", for a line to the user.
  const std::string& exported() const { return exported_; }

 private:
  std::string variant_, path_, exported_;
};

}  // namespace arb::cli
