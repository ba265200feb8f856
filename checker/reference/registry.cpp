#include "reference.hpp"

namespace arb::ref {

std::unique_ptr<Engine> make_reference_engine(const std::string& variant) {
  if (variant == "chess") return make_chess_engine();
  if (variant == "chessembly") return make_chessembly_engine();
  if (variant == "chessme") return make_chessme_engine();
  return nullptr;
}

}  // namespace arb::ref
