#include <stdexcept>

#include "reference.hpp"

namespace arb::ref {

namespace {

// Variants without options reject every option by name.
void no_options(const std::string& variant, const std::map<std::string, std::string>& options) {
  if (!options.empty())
    throw std::invalid_argument(variant + ": unknown option '" + options.begin()->first + "' (" + variant +
                                " has no options)");
}

}  // namespace

std::unique_ptr<Engine> make_reference_engine(const std::string& variant,
                                              const std::map<std::string, std::string>& options) {
  if (variant == "nostress") return make_nostress_engine(options);
  if (variant == "chess2") return make_chess2_engine(options);
  if (variant == "chessme") return make_chessme_engine(options);
  if (variant != "chess" && variant != "chessembly") return nullptr;
  no_options(variant, options);
  if (variant == "chess") return make_chess_engine();
  return make_chessembly_engine();
}

}  // namespace arb::ref
