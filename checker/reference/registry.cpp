#include <stdexcept>

#include "reference.hpp"

namespace arb::ref {

std::unique_ptr<Engine> make_reference_engine(const std::string& variant,
                                              const std::map<std::string, std::string>& options) {
  if (variant == "chess2") return make_chess2_engine(options);
  if (!options.empty() && (variant == "chess" || variant == "chessembly" || variant == "chessme"))
    throw std::invalid_argument("reference:" + variant + " takes no options");
  if (variant == "chess") return make_chess_engine();
  if (variant == "chessembly") return make_chessembly_engine();
  if (variant == "chessme") return make_chessme_engine();
  return nullptr;
}

}  // namespace arb::ref
