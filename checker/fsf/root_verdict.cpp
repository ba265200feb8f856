// The result Fairy-Stockfish gives a root position without moves (issue 26).
//
// Over UCI such a position's only answer is `info depth 0 score mate 0`: its search prints
// UCI::value() of the variant's verdict, and both +VALUE_MATE (the side to move has won,
// e.g. its opponent's last piece of an extinction type is gone) and -VALUE_MATE (it has
// lost) round to `mate 0`. The XBoard protocol of the same engine prints the verdict as a
// result line (`1-0 {White wins}`, `0-1 {Black wins}`, `1/2-1/2 {Draw}`) when it is asked
// to move in such a position, so the adapter switches to XBoard for that one question and
// back to UCI (both Fairy-Stockfish 11.1 and the current npm build answer so).
#include <sstream>

#include "fsf/fairy_stockfish.hpp"
#include "fsf/process.hpp"

namespace arb::fsf {

Result FairyStockfishEngine::root_verdict(const std::string& fen) {
  if (fen.find('\n') != std::string::npos)
    throw std::runtime_error(name() + ": a position text with a newline");
  // `force` first: XBoard's engine would otherwise answer `setboard` by moving; `go` asks it
  // to play the side to move, and with no move it prints the result line at once. The
  // second `force` waits for that search to end, so nothing of it is read after `uciok`.
  proc_->write("xboard\nprotover 2\nvariant " + settings_.variant + "\nforce\nsetboard " + fen + "\ngo\n");
  std::optional<Result> verdict;
  std::string line;
  while (!verdict) {
    line = proc_->read_line(settings_.timeout);
    std::istringstream in(line);
    std::string word;
    in >> word;
    if (word == "1-0")
      verdict = Result::WhiteWins;
    else if (word == "0-1")
      verdict = Result::BlackWins;
    else if (word == "1/2-1/2")
      verdict = Result::Draw;
  }
  // Back to UCI: `uci` resets UCI_Variant to chess and the position to its start.
  proc_->write("force\nuci\n");
  read_until("uciok", settings_.timeout, nullptr);
  proc_->write("setoption name UCI_Variant value " + settings_.variant +
               "\nsetoption name UCI_Chess960 value true\nisready\n");
  read_until("readyok", settings_.timeout, nullptr);
  return *verdict;
}

}  // namespace arb::fsf
