// Fairy-Stockfish as a reference engine: arb::Engine over UCI, for rulesets that have no
// hand-written reference (a designer's own variant that Fairy-Stockfish knows).
//
// One child process per engine object; clone() starts another process (engines are used
// from several fuzzing threads, and a process of its own keeps each one simple). Actions
// carry Fairy-Stockfish's move text (`e2e4`, `e7e8q`, `P@e4`), so they stay meaningful
// without a table. Every node asks the engine once (`position fen ROOT moves ...`, `d`,
// `go perft 1`) and the answers are kept on a stack, so undo() asks nothing.
//
// What it covers: legal moves, check, checkmate and stalemate (their result as the
// variant scores a position without moves, `go depth 1`), the claims of the fifty-move
// rule (100 halfmoves) and of threefold repetition (counted from the position set), and
// dead positions by the classical material rule (kings with at most one knight or bishop,
// or one bishop each on squares of one colour) when the variant's royal piece K moves as
// a chess king. Positions are checked before they are sent (FEN shape, the start's
// letters, one K and one k where the start has them, castling rights, no piece on a rank
// the ruleset forbids it (FsfSettings::rank_bans), the side not to move not in check): Fairy-Stockfish trusts
// its input. The engine runs in Chess960 mode (castling written king-takes-rook, whatever file the king
// stands on); chess960() stays false, so UCI text shows the king's destination.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/fen.hpp"

namespace arb::fsf {

class Process;

// $ARBITER_FAIRY_STOCKFISH when set, else /usr/games/fairy-stockfish.
std::string default_command();

// The engine `--fsf-engine` names: `wasm:DIR` runs current Fairy-Stockfish, the npm build
// fairy-stockfish-nnue.wasm installed under DIR (`npm install --prefix DIR
// fairy-stockfish-nnue.wasm`), through node and checker/fsf/uci-wasm.js
// ($ARBITER_FSF_WASM_DRIVER names another copy of that script); anything else is a command
// line (split on whitespace); "" the default command.
struct EngineCommand {
  std::vector<std::string> argv;
  bool wasm = false;  // current Fairy-Stockfish (variants.ini: FsfDialect::Current)
};
EngineCommand engine_command(const std::string& spec);
// The driver script wasm:DIR runs.
std::string wasm_driver();

// The engine command is missing or does not speak UCI.
struct EngineMissing : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The engine does not know the variant (or rejects the variant file).
struct VariantRefused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct FsfSettings {
  std::string command;            // "" = default_command(); split on whitespace, no shell
  std::vector<std::string> argv;  // when not empty: the command as words (engine_command())
  std::string variant;            // UCI_Variant (required)
  std::string variant_path;       // VariantPath ini file ("" = none)
  double timeout = 10;            // seconds per answer line (perft: per root move)
  // Seconds for the first `uciok`: the wasm build takes a while to start (node loads and
  // compiles the module).
  double start_timeout = 120;
  // Whether a position with insufficient material is a dead draw. Fairy-Stockfish's UCI
  // reports no such end, so the adapter judges it itself, by the classical rule; unset: for a
  // variant whose royal moves as a chess king (a probe of the engine). The ruleset compared
  // says it when it is known (`insufficient-material` in its `end` block): a catalogue
  // variant has no such rule.
  std::optional<bool> dead_positions;
  // The colour whose win a draw is (0 White, 1 Black; -1: none), from the ruleset's
  // `draw-odds`. Fairy-Stockfish turns every draw it adjudicates into that side's win
  // (armageddon's materialCounting = blackdrawodds: the n-move rule, repetition, a stalemate
  // its search scores), so the dead-position draw the adapter judges itself goes the same way.
  int draw_odds = -1;
  // The claims (halfmoves for the fifty-move claim, occurrences for repetition; 0: none).
  // UCI reports no claim, so the adapter judges them, by default as chess does (RULINGS 0:
  // 100 and 3); the ruleset compared says them when it is known (`claim ...` in its `end`
  // block): makruk's family, for one, counts moves instead and has no fifty-move claim.
  int claim_fifty = 100, claim_repetition = 3;
  // Where a piece may not stand, in ranks counted from its own side (1 = its first rank):
  // Fairy-Stockfish trusts its input, so such a position is refused before it is sent. The
  // ruleset compared says it when it is known (`forbidden ranks`, a mandatory `promote on
  // rank`); unset: a chess pawn's, `P` on the first and the last rank. A game whose `P` is
  // no pawn (breakthrough, clobber, ataxx) starts with it on its first rank.
  struct RankBan {
    char letter = 0;  // upper case
    int lo = 0, hi = 0;
  };
  std::optional<std::vector<RankBan>> rank_bans;
  // The letters of the pieces whose move resets the halfmove clock (a move of one, or a
  // capture): the clock is rebuilt from them where Fairy-Stockfish writes its count instead
  // (makruk's counting rule). Unset: `P`.
  std::optional<std::string> clock_resetters;
  // Castling as the ruleset states it: the king's and the rooks' letters (`rook R C`), the
  // relative rank (shako's 2) and the field's form (`field shredder`: rook files, as for
  // fischerandom; else X-FEN). The engine's field (Shredder-FEN in Chess960 mode) is read
  // with them and written as the compiled engine writes it.
  // Fairy-Stockfish writes a promotion into a piece's promoted type `+` (`g7c3+`); the
  // ruleset names that type (`promotes-to H in camp`): base letter -> promoted letter,
  // both upper case, so the action reads as the compiled engine writes it (`g7c3h`).
  // The board keeps a promoted piece `+N` as that type's letter (kyotoshogi's `M`), a
  // demotion (`d1c2-`) names the base type and a promoted drop (`+N@c3`) the promoted one.
  std::map<char, char> promoted;
  // The ruleset's `pass` (janggi: `turn { action move; pass }`) is written as the royal
  // piece's square twice (`e2e2`), as Fairy-Stockfish writes it: such a move is described as
  // that piece's move onto its own square. Unset, a move from and to one square is a pass
  // step (`pass when-blocked`: ataxx, flipello, whose pass names any own piece's square).
  bool pass_in_place = false;
  // The letters of the pieces whose double step the ruleset writes as a path
  // (`en-passant-field path`: berolina, pawnback, pawnsideways): Fairy-Stockfish writes their
  // field as the square passed and the arrival (`f5g6`) whether or not a capture is possible,
  // and so does the compiled engine; it is kept as written (squares in board order). Other
  // fields are kept only when a legal capture lands there.
  std::string ep_path;
  // Where a double step passes: a piece's letter (upper case) and the rank of the square it
  // passed, counted from its side (its `initial ranks` + 1: 4 on opulent's and grand's 10x10,
  // whose pawns double-step from rank 3). A position's en-passant square elsewhere is dropped
  // before it is sent (Fairy-Stockfish would honour it). Empty: a chess pawn's, P and 3.
  std::vector<std::pair<char, int>> ep_passed;
  char castling_king = 'K';
  std::string castling_rooks = "R";
  int castling_rank = 1;
  bool castling_shredder = false;
};

class FairyStockfishEngine final : public Engine {
 public:
  explicit FairyStockfishEngine(FsfSettings s);
  ~FairyStockfishEngine() override;

  std::string name() const override { return "fairy-stockfish:" + settings_.variant; }
  GameConfig config() const override;
  void set_position(std::string_view text) override;
  std::string position() const override;
  void legal_actions(std::vector<Action>& out) override;
  void apply(const Action& a) override;
  void undo() override;
  Status status() override;
  // UCI reports a score, not the rule that ended the game (the end is inferred: see status()).
  bool names_end_condition() const override { return false; }
  bool side_in_check() override;
  uint64_t hash() const override;
  Color side_to_move() const override;
  ActionInfo describe(const Action& a) const override;
  uint64_t perft(int depth) override;
  std::unique_ptr<Engine> clone() const override;
  // A copy without a process, only to be cloned: the maker of further engines, so that
  // the first one need not be a clone (each process start of the wasm build took 10-30 s
  // on a loaded machine).
  std::shared_ptr<const FairyStockfishEngine> blueprint() const;

  // The variant's start position as Fairy-Stockfish writes it.
  const std::string& start() const { return start_; }
  // Whether the classical dead-position rule is applied (K moves as a chess king).
  bool dead_positions() const { return dead_rule_; }

  // One node as the engine answered for it.
  struct Node {
    std::string fen;                 // normalised: en passant only with a legal capture
    std::vector<std::string> moves;  // go perft 1
    bool in_check = false;
    uint64_t hash = 0;
    std::vector<char> board;            // (y-1)*width + x, 0 = empty
    std::vector<std::string> ep_moves;  // the en-passant captures among `moves`
    std::optional<Coord> ep_victim;     // the pawn they take, when the engine names it
    // The engine wrote its counting rule's limit and ply (makruk, asean) where the
    // en-passant field and the halfmove clock stand: the clock is rebuilt by apply().
    bool counting = false;
  };

 private:
  // clone(): a new process (`start` false: none, for blueprint())
  FairyStockfishEngine(const FairyStockfishEngine& other, bool start = true);
  void start_process();
  // `en_passant` false: the en-passant field is not analysed (a child asked only for its board).
  Node query(const std::string& root, const std::vector<std::string>& moves, bool en_passant = true) const;
  const Node& node() const { return nodes_.back(); }
  std::string position_command(const std::string& root, const std::vector<std::string>& moves) const;
  std::string read_until(const std::string& prefix, double seconds, std::vector<std::string>* lines) const;
  bool insufficient_material(const Node& n) const;
  // Whether the engine moves `letter` as the chess `kind` ('K', 'N' or 'B'): the moves of a
  // lone one on a central square, kings placed off its lines (dead_probe.cpp).
  bool moves_as(char kind, char letter) const;
  // The verdict on a root position without moves, asked over XBoard (root_verdict.cpp).
  Result root_verdict(const std::string& fen);
  // The castling rights of `f` written as the ruleset writes them (FsfSettings).
  std::string castling_text(const FenFields& f) const;
  // The halfmove clock after move `m` from `parent`, as arbiter counts it.
  int clock_after(const Node& parent, const std::string& m, const Node& child) const;

  FsfSettings settings_;
  std::unique_ptr<Process> proc_;
  int width_ = 8, height_ = 8;
  std::string letters_;  // piece letters of the start (both cases)
  std::string start_;
  bool kings_ = false;  // the start has one K and one k
  bool dead_rule_ = false;
  // The letters N and B count as minor pieces in the dead-position rule only when the engine
  // moves them as a knight and a bishop (nightrider's N rides).
  bool knight_minor_ = false, bishop_minor_ = false;
  std::string root_;
  std::vector<std::string> moves_;
  std::vector<Node> nodes_;  // nodes_[i]: after moves_[0..i)
};

}  // namespace arb::fsf
