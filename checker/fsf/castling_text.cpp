// The castling field of a Fairy-Stockfish FEN as arbiter writes it (X-FEN, or Shredder-FEN
// where the ruleset states `field shredder`): the adapter rewrites the engine's field with
// the rights its board and the ruleset's castling facts allow (apart from
// fairy_stockfish.cpp, which holds the rest of the position's normalisation).
#include "arbiter/fen.hpp"
#include "fsf/fairy_stockfish.hpp"

namespace arb::fsf {

std::string FairyStockfishEngine::castling_text(const FenFields& f) const {
  const auto rights =
      resolve_castling(f, settings_.castling_king, settings_.castling_rooks, settings_.castling_rank);
  if (!settings_.castling_shredder)
    return format_castling(f, rights, settings_.castling_king, settings_.castling_rooks,
                           settings_.castling_rank);
  // Shredder-FEN: each right as its rook's file, White's first, the king side first.
  std::string out;
  for (Color c : {Color::White, Color::Black}) {
    const int rank = c == Color::White ? settings_.castling_rank : f.height + 1 - settings_.castling_rank;
    const char k = c == Color::White
                       ? settings_.castling_king
                       : static_cast<char>(std::tolower(static_cast<unsigned char>(settings_.castling_king)));
    int kf = -1;
    for (int x = 0; x < f.width; ++x)
      if (f.at(Coord{x, rank}) == k) kf = x;
    for (bool king_side : {true, false})
      for (const auto& r : rights)
        if (r.color == c && (r.rook_file > kf) == king_side)
          out.push_back(static_cast<char>((c == Color::White ? 'A' : 'a') + r.rook_file));
  }
  return out.empty() ? "-" : out;
}

}  // namespace arb::fsf
