#include "fsf/fairy_stockfish.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "arbiter/fen.hpp"
#include "fsf/process.hpp"

namespace arb::fsf {

namespace {

std::vector<std::string> fields_of(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// An action is Fairy-Stockfish's move text, packed into the 16 bytes of arb::Action.
Action encode(const std::string& text) {
  if (text.size() > 16) throw std::runtime_error("fairy-stockfish: move text too long: " + text);
  Action a;
  for (size_t i = 0; i < text.size(); ++i) {
    uint64_t byte = static_cast<unsigned char>(text[i]);
    if (i < 8)
      a.lo |= byte << (8 * i);
    else
      a.hi |= byte << (8 * (i - 8));
  }
  return a;
}

std::string decode(const Action& a) {
  std::string out;
  for (int i = 0; i < 16; ++i) {
    uint64_t word = i < 8 ? a.lo : a.hi;
    char ch = static_cast<char>((word >> (8 * (i % 8))) & 0xff);
    if (!ch) break;
    out.push_back(ch);
  }
  return out;
}

// A square in move text (`e4`, `b10`) at `pos`; advances `pos`.
bool read_square(const std::string& t, size_t& pos, Coord& c) {
  if (pos >= t.size() || t[pos] < 'a' || t[pos] > 'z') return false;
  c.x = t[pos++] - 'a';
  size_t start = pos;
  int y = 0;
  while (pos < t.size() && t[pos] >= '0' && t[pos] <= '9') y = y * 10 + (t[pos++] - '0');
  if (pos == start) return false;
  c.y = y;
  return true;
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : s) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return h;
}

char upper(char c) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
}
bool is_white(char c) {
  return c >= 'A' && c <= 'Z';
}

}  // namespace

std::string default_command() {
  const char* env = std::getenv("ARBITER_FAIRY_STOCKFISH");
  if (env && *env) return env;
  return "/usr/games/fairy-stockfish";
}

std::string wasm_driver() {
  const char* env = std::getenv("ARBITER_FSF_WASM_DRIVER");
  if (env && *env) return env;
  return ARBITER_FSF_WASM_DRIVER;
}

EngineCommand engine_command(const std::string& spec) {
  EngineCommand c;
  if (spec.rfind("wasm:", 0) == 0) {
    const std::string dir = spec.substr(5);
    if (dir.empty()) throw EngineMissing("--fsf-engine wasm:DIR needs the folder holding node_modules");
    if (!std::ifstream(dir + "/node_modules/fairy-stockfish-nnue.wasm/stockfish.js"))
      throw EngineMissing("Fairy-Stockfish (wasm): no " + dir +
                          "/node_modules/fairy-stockfish-nnue.wasm (install it with `npm install --prefix " +
                          dir + " fairy-stockfish-nnue.wasm`)");
    c.argv = {"node", wasm_driver(), dir};
    c.wasm = true;
    return c;
  }
  c.argv = split_command(spec.empty() ? default_command() : spec);
  return c;
}

FairyStockfishEngine::FairyStockfishEngine(FsfSettings s) : settings_(std::move(s)) {
  if (settings_.command.empty()) {
    if (settings_.argv.empty()) {
      settings_.command = default_command();
    } else {
      for (const auto& a : settings_.argv) settings_.command += (settings_.command.empty() ? "" : " ") + a;
    }
  }
  start_process();
  // The variant's board, letters and start, read from the engine itself.
  Node st = query("startpos", {});
  start_ = st.fen;
  const std::string placement = fields_of(start_).at(0);
  height_ = static_cast<int>(std::count(placement.begin(), placement.end(), '/')) + 1;
  width_ = static_cast<int>(st.board.size()) / height_;
  int kings[2] = {0, 0};
  for (char c : st.board) {
    if (c == 'K') ++kings[0];
    if (c == 'k') ++kings[1];
  }
  // The letters as the engine writes them (a `+N` is an N), a piece that starts in hand
  // (dragon's `[Dd]`) included.
  for (char c : placement)
    if (std::isalpha(static_cast<unsigned char>(c)) && letters_.find(upper(c)) == std::string::npos)
      letters_ += {upper(c), static_cast<char>(std::tolower(static_cast<unsigned char>(c)))};
  if (!settings_.rank_bans)
    settings_.rank_bans = std::vector<FsfSettings::RankBan>{{'P', 1, 1}, {'P', height_, height_}};
  if (!settings_.clock_resetters) settings_.clock_resetters = "P";
  kings_ = kings[0] == 1 && kings[1] == 1;
  // The classical dead-position rule holds for a royal that moves as a chess king: ask the
  // engine where a lone K may go. Its minors are the letters it moves as a knight and a bishop.
  if (settings_.dead_positions)
    dead_rule_ = *settings_.dead_positions;
  else
    dead_rule_ = kings_ && moves_as('K', 'K');
  if (dead_rule_) {
    knight_minor_ = moves_as('N', 'N');
    bishop_minor_ = moves_as('B', 'B');
  }
  set_position(start_);
}

FairyStockfishEngine::FairyStockfishEngine(const FairyStockfishEngine& o, bool start)
    : settings_(o.settings_),
      width_(o.width_),
      height_(o.height_),
      letters_(o.letters_),
      start_(o.start_),
      kings_(o.kings_),
      dead_rule_(o.dead_rule_),
      knight_minor_(o.knight_minor_),
      bishop_minor_(o.bishop_minor_),
      root_(o.root_),
      moves_(o.moves_),
      nodes_(o.nodes_) {
  if (start) start_process();
}

std::shared_ptr<const FairyStockfishEngine> FairyStockfishEngine::blueprint() const {
  return std::shared_ptr<const FairyStockfishEngine>(new FairyStockfishEngine(*this, false));
}

FairyStockfishEngine::~FairyStockfishEngine() = default;

std::unique_ptr<Engine> FairyStockfishEngine::clone() const {
  return std::unique_ptr<Engine>(new FairyStockfishEngine(*this));
}

void FairyStockfishEngine::start_process() {
  const std::vector<std::string> argv =
      settings_.argv.empty() ? split_command(settings_.command) : settings_.argv;
  const std::string install =
      " (install it with `apt-get install fairy-stockfish`, or set ARBITER_FAIRY_STOCKFISH to the engine "
      "command)";
  try {
    proc_ = std::make_unique<Process>(argv);
  } catch (const SpawnError& e) {
    throw EngineMissing(std::string("Fairy-Stockfish: ") + e.what() + install);
  }
  // The variants the engine offers, from the UCI_Variant option.
  auto variants = [&] {
    std::vector<std::string> lines;
    read_until("uciok", settings_.start_timeout, &lines);
    std::vector<std::string> names;
    for (const auto& l : lines) {
      if (!starts_with(l, "option name UCI_Variant ")) continue;
      auto w = fields_of(l);
      for (size_t i = 0; i + 1 < w.size(); ++i)
        if (w[i] == "var") names.push_back(w[i + 1]);
    }
    return names;
  };
  std::vector<std::string> names;
  try {
    proc_->write("uci\n");
    names = variants();
    if (!settings_.variant_path.empty()) {
      if (!std::ifstream(settings_.variant_path))
        throw VariantRefused("Fairy-Stockfish: cannot read the variant file `" + settings_.variant_path +
                             "`");
      if (settings_.variant_path.find('\n') != std::string::npos)
        throw VariantRefused("Fairy-Stockfish: a variant file name may not contain a newline");
      proc_->write("setoption name VariantPath value " + settings_.variant_path + "\nuci\n");
      names = variants();
    }
  } catch (const ProcessError& e) {
    throw EngineMissing(std::string("Fairy-Stockfish does not answer `uci`: ") + e.what() + install);
  }
  if (std::find(names.begin(), names.end(), settings_.variant) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : " ") + n;
    throw VariantRefused(
        "Fairy-Stockfish (`" + settings_.command + "`) does not know the variant `" + settings_.variant +
        "`" + (settings_.variant_path.empty() ? "" : " (with the variant file)") + "; it offers: " + list);
  }
  // Chess960 mode: castling is then written king-takes-rook, which tells it from a king's
  // step whatever file the king stands on (positions with castling rights and the king off
  // its usual file arise in fuzzing); the castling field it writes is read back below.
  proc_->write("setoption name UCI_Variant value " + settings_.variant +
               "\nsetoption name UCI_Chess960 value true\nisready\n");
  read_until("readyok", settings_.timeout, nullptr);
}

std::string FairyStockfishEngine::read_until(const std::string& prefix, double seconds,
                                             std::vector<std::string>* lines) const {
  for (;;) {
    std::string l = proc_->read_line(seconds);
    if (starts_with(l, prefix)) return l;
    if (lines) lines->push_back(std::move(l));
  }
}

std::string FairyStockfishEngine::position_command(const std::string& root,
                                                   const std::vector<std::string>& moves) const {
  std::string cmd = root == "startpos" ? "position startpos" : "position fen " + root;
  if (!moves.empty()) {
    cmd += " moves";
    for (const auto& m : moves) cmd += " " + m;
  }
  return cmd + "\n";
}

FairyStockfishEngine::Node FairyStockfishEngine::query(const std::string& root,
                                                       const std::vector<std::string>& moves,
                                                       bool en_passant) const {
  // `d` answers at once; `go perft 1` runs on the search thread, so it goes last and
  // nothing is sent before its `Nodes searched` line.
  proc_->write(position_command(root, moves) + "d\ngo perft 1\n");
  Node n;
  std::string fen = read_until("Fen: ", settings_.timeout, nullptr).substr(5);
  std::string checkers = read_until("Checkers:", settings_.timeout, nullptr).substr(9);
  n.in_check = !fields_of(checkers).empty();
  std::vector<std::string> lines;
  std::string total = read_until("Nodes searched: ", settings_.timeout, &lines);
  for (const auto& l : lines) {
    size_t colon = l.find(": ");
    if (colon == std::string::npos || colon == 0 || l.find(' ') < colon) continue;
    // A move names a square, so it has a digit; current Fairy-Stockfish's `d` ends with
    // lines such as `Chased: ` that do not.
    if (l.find_first_of("0123456789") > colon) continue;
    n.moves.push_back(l.substr(0, colon));
  }
  if (std::to_string(n.moves.size()) != total.substr(16))
    throw std::runtime_error("fairy-stockfish: perft 1 listed " + std::to_string(n.moves.size()) +
                             " moves but counted " + total.substr(16));
  // The board from the placement field (pockets and `~` markers aside; a `+X` as the letter
  // the ruleset gives X's promoted type, when it names one).
  auto f = fields_of(fen);
  if (f.size() < 4) throw std::runtime_error("fairy-stockfish: unreadable FEN `" + fen + "`");
  std::vector<std::vector<char>> rows(1);
  const std::string& placement = f[0];
  for (size_t i = 0; i < placement.size() && placement[i] != '['; ++i) {
    char c = placement[i];
    if (c == '+' && i + 1 < placement.size() && std::isalpha(static_cast<unsigned char>(placement[i + 1]))) {
      c = placement[++i];
      if (auto it = settings_.promoted.find(upper(c)); it != settings_.promoted.end())
        c = is_white(c) ? it->second
                        : static_cast<char>(std::tolower(static_cast<unsigned char>(it->second)));
      rows.back().push_back(c);
    } else if (c == '/') {
      rows.emplace_back();
    } else if (c >= '0' && c <= '9') {
      int k = 0;
      while (i < placement.size() && placement[i] >= '0' && placement[i] <= '9')
        k = k * 10 + (placement[i++] - '0');
      --i;
      rows.back().insert(rows.back().end(), static_cast<size_t>(k), 0);
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      rows.back().push_back(c);
    } else if (c == '*') {
      rows.back().push_back(0);  // a wall square: no piece, and no move ends there
    }
  }
  const size_t w = rows[0].size(), h = rows.size();
  n.board.assign(w * h, 0);
  for (size_t r = 0; r < h; ++r) {
    if (rows[r].size() != w) throw std::runtime_error("fairy-stockfish: ragged board in `" + fen + "`");
    for (size_t x = 0; x < w; ++x) n.board[(h - 1 - r) * w + x] = rows[r][x];
  }
  // A counting rule's limit where the en-passant field stands (its ply is in the clock's
  // place): the field is read as no square below, and apply() rebuilds the clock.
  n.counting = !f[3].empty() && f[3].find_first_not_of("0123456789") == std::string::npos;
  // En passant as arbiter writes it: only when a legal capture onto the square exists.
  // Castling rights in X-FEN as arbiter writes them (Chess960 mode writes Shredder-FEN).
  if (f[2] != "-") {
    try {
      // Castling does not depend on the en-passant field, which current Fairy-Stockfish
      // may write as several squares (`f5g6`: the pawn and the square it passed).
      std::string plain = f[0] + " " + f[1] + " " + f[2] + " -";
      for (size_t i = 4; i < f.size(); ++i) plain += " " + f[i];
      // (`~` marks a promoted piece in a hand variant's placement: bughouse's `b~`)
      FenFields ff = parse_fen(plain, static_cast<int>(w), static_cast<int>(h),
                               "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz*~");
      f[2] = castling_text(ff);
    } catch (const PositionError&) {
      // Left as the engine wrote it: the position comparison shows the difference.
    }
  }
  if (f[3] != "-" && !en_passant) f[3] = "-";
  if (f[3] != "-") {
    // The squares of the field: the empty one is where an en-passant capture lands (the
    // square passed over), an occupied one the pawn that passed (current Fairy-Stockfish).
    std::optional<Coord> target;
    size_t pos = 0;
    Coord sq;
    while (read_square(f[3], pos, sq)) {
      if (sq.x < 0 || sq.x >= static_cast<int>(w) || sq.y < 1 || sq.y > static_cast<int>(h)) continue;
      if (!n.board[(sq.y - 1) * w + sq.x])
        target = sq;
      else
        n.ep_victim = sq;
    }
    // Kept only when a legal capture lands there: a pawn's move onto the square after
    // which a piece is gone (asked of the engine, so any pawn's capture pattern counts).
    bool keep = false;
    if (target) {
      const auto count = [](const std::vector<char>& b) {
        return std::count_if(b.begin(), b.end(), [](char c) { return c != 0; });
      };
      for (const auto& m : n.moves) {
        Coord from, to;
        size_t p = 0;
        if (!read_square(m, p, from) || !read_square(m, p, to) || to != *target) continue;
        if (upper(n.board[(from.y - 1) * w + from.x]) != 'P') continue;
        std::vector<std::string> next = moves;
        next.push_back(m);
        Node child = query(root, next, false);
        if (count(child.board) < count(n.board)) {
          keep = true;
          n.ep_moves.push_back(m);
        }
      }
    }
    const auto name = [](Coord c) {
      return std::string(1, static_cast<char>('a' + c.x)) + std::to_string(c.y);
    };
    const auto index = [w](Coord c) { return (c.y - 1) * static_cast<int>(w) + c.x; };
    if (target && n.ep_victim &&
        settings_.ep_path.find(upper(n.board[index(*n.ep_victim)])) != std::string::npos)
      f[3] = index(*target) < index(*n.ep_victim) ? name(*target) + name(*n.ep_victim)
                                                  : name(*n.ep_victim) + name(*target);
    else
      f[3] = keep ? name(*target) : "-";
  }
  n.fen.clear();
  for (const auto& x : f) n.fen += (n.fen.empty() ? "" : " ") + x;
  // Every field but the clock and the move number: 3check's counters (`3+2`) are position too.
  n.hash = fnv1a(f[0] + " " + f[1] + " " + f[2] + " " + f[3] + (f.size() > 6 ? " " + f[4] : ""));
  return n;
}

GameConfig FairyStockfishEngine::config() const {
  // RULINGS 0: threefold repetition and the fifty-move rule (100 halfmoves) are claims,
  // unless the compared ruleset states others (FsfSettings).
  GameConfig c{name(), {}};
  if (settings_.claim_fifty) c.options.push_back({"fifty-move", std::to_string(settings_.claim_fifty)});
  if (settings_.claim_repetition)
    c.options.push_back({"repetition", std::to_string(settings_.claim_repetition)});
  return c;
}

void FairyStockfishEngine::set_position(std::string_view text) {
  if (text == "start") text = start_;
  // `*`: a wall square; `+X`: a promoted piece, where the ruleset names promoted types
  // (kyotoshogi's start, `p+nks+l/...`).
  FenFields f = parse_fen(text, width_, height_, letters_ + "*" + (settings_.promoted.empty() ? "" : "+"));
  if (kings_) {
    int k[2] = {0, 0};
    for (char c : f.cells) {
      if (c == 'K') ++k[0];
      if (c == 'k') ++k[1];
    }
    if (k[0] != 1) throw PositionError("White must have exactly one king, has " + std::to_string(k[0]), 0);
    if (k[1] != 1) throw PositionError("Black must have exactly one king, has " + std::to_string(k[1]), 0);
  }
  for (const FsfSettings::RankBan& ban : *settings_.rank_bans)
    for (int x = 0; x < width_; ++x)
      for (int y = 1; y <= height_; ++y) {
        const char c = f.at(Coord{x, y});
        if (!c || upper(c) != ban.letter) continue;
        // (a `+X` is X's promoted type, which the ban does not concern)
        if (const size_t i = static_cast<size_t>(y - 1) * width_ + x; i < f.plus.size() && f.plus[i])
          continue;
        const int own = is_white(c) ? y : height_ + 1 - y;  // the rank counted from its side
        if (own < ban.lo || own > ban.hi) continue;
        throw PositionError(std::string(1, c) + " on " + static_cast<char>('a' + x) + std::to_string(y) +
                                ": it may not stand on its rank " +
                                (ban.lo == ban.hi ? std::to_string(ban.lo)
                                                  : std::to_string(ban.lo) + ".." + std::to_string(ban.hi)),
                            0);
      }
  try {
    resolve_castling(f, settings_.castling_king, settings_.castling_rooks, settings_.castling_rank);
  } catch (const PositionError& e) {
    throw PositionError(std::string("castling field: ") + e.what(), 0);
  }
  // An en-passant square that no two-square advance can have left is dropped (as the
  // reference engines do); Fairy-Stockfish would otherwise take its word for it.
  bool path_from_square = false;  // a one-square field given as a path (below)
  if (f.ep && f.ep_more.size() == 1) {
    // A path (`f5g6`): kept when it is the square passed, empty, and the arrival of a piece
    // whose field the ruleset writes so, of the side that just moved.
    Coord passed = *f.ep, arrival = f.ep_more[0];
    if (f.at(passed)) std::swap(passed, arrival);
    const char p = f.at(arrival);
    const bool ok = !f.at(passed) && p && is_white(p) != (f.side == Color::White) &&
                    settings_.ep_path.find(upper(p)) != std::string::npos;
    if (!ok) f.ep.reset();
  } else if (f.ep) {
    f.ep_more.clear();
    const bool white = f.side == Color::White;
    const Coord ep = *f.ep;
    const int dy = white ? -1 : 1;  // from the square to the pawn that advanced
    const auto in_board = [&](int y) { return y >= 1 && y <= height_; };
    bool ok = false;
    const std::vector<std::pair<char, int>> chess = {{'P', 3}};
    for (const auto& [letter, rank] : settings_.ep_passed.empty() ? chess : settings_.ep_passed) {
      const char mover = white ? static_cast<char>(std::tolower(static_cast<unsigned char>(letter))) : letter;
      ok =
          ok || (ep.y == (white ? height_ + 1 - rank : rank) && in_board(ep.y - dy) && in_board(ep.y + dy) &&
                 f.at(ep) == 0 && f.at(Coord{ep.x, ep.y - dy}) == 0 && f.at(Coord{ep.x, ep.y + dy}) == mover);
    }
    if (!ok) f.ep.reset();
    // A piece whose field is a path: written as the compiled engine reads it (`c3` of a
    // pawnback pawn on c4 is `c3c4`, kept only with a legal capture: checked below), as
    // Fairy-Stockfish writes it after the double step.
    const char mover = ok ? f.at(Coord{ep.x, ep.y + dy}) : 0;
    if (mover && settings_.ep_path.find(upper(mover)) != std::string::npos)
      f.ep_more = {Coord{ep.x, ep.y + dy}};
    path_from_square = !f.ep_more.empty();
  }
  std::string root = format_fen(f);
  if (kings_) {
    // The side not to move may not stand in check.
    FenFields flipped = f;
    flipped.side = f.side == Color::White ? Color::Black : Color::White;
    flipped.ep.reset();
    flipped.castling = "-";
    if (query(format_fen(flipped), {}).in_check)
      throw PositionError(std::string(f.side == Color::White ? "Black" : "White") + " is in check but " +
                              (f.side == Color::White ? "White" : "Black") + " is to move",
                          0);
  }
  Node n = query(root, {});
  if (path_from_square && n.ep_moves.empty()) {
    f.ep.reset();
    root = format_fen(f);
    n = query(root, {});
  }
  root_ = root;
  moves_.clear();
  nodes_.assign(1, std::move(n));
}

std::string FairyStockfishEngine::position() const {
  return node().fen;
}

void FairyStockfishEngine::legal_actions(std::vector<Action>& out) {
  out.clear();
  for (const auto& m : node().moves) out.push_back(encode(m));
}

void FairyStockfishEngine::apply(const Action& a) {
  std::string m = decode(a);
  const auto& legal = node().moves;
  if (std::find(legal.begin(), legal.end(), m) == legal.end())
    throw std::invalid_argument(name() + ": `" + m + "` is not legal here");
  moves_.push_back(m);
  try {
    Node child = query(root_, moves_);
    if (child.counting) {
      // Fairy-Stockfish wrote its count in the clock's place: the clock is the parent's,
      // one on, or 0 after a capture or a move of a piece that resets it.
      auto f = fields_of(child.fen);
      f[f.size() - 2] = std::to_string(clock_after(node(), m, child));
      child.fen.clear();
      for (const auto& x : f) child.fen += (child.fen.empty() ? "" : " ") + x;
    }
    nodes_.push_back(std::move(child));
  } catch (...) {
    moves_.pop_back();
    throw;
  }
}

void FairyStockfishEngine::undo() {
  if (moves_.empty()) throw std::logic_error(name() + ": undo with no move applied");
  moves_.pop_back();
  nodes_.pop_back();
}

bool FairyStockfishEngine::side_in_check() {
  return node().in_check;
}

bool FairyStockfishEngine::insufficient_material(const Node& n) const {
  // A piece in hand may be dropped: not dead (as Fairy-Stockfish's has_insufficient_material).
  const size_t open = n.fen.find('['), close = n.fen.find(']');
  if (open != std::string::npos && close != std::string::npos && close > open + 1 && open < n.fen.find(' '))
    return false;
  int minors = 0, knights = 0, bishops[2] = {0, 0}, colour[2] = {0, 0};
  for (size_t i = 0; i < n.board.size(); ++i) {
    char c = n.board[i];
    if (!c) continue;
    switch (upper(c)) {
      case 'K':
        break;
      case 'N':
        if (!knight_minor_) return false;
        ++knights;
        ++minors;
        break;
      case 'B': {
        if (!bishop_minor_) return false;
        int side = is_white(c) ? 0 : 1;
        ++bishops[side];
        ++minors;
        colour[side] = static_cast<int>(i % width_ + i / width_) % 2;
        break;
      }
      default:
        return false;
    }
  }
  if (minors <= 1) return true;
  return knights == 0 && bishops[0] == 1 && bishops[1] == 1 && colour[0] == colour[1];
}

Status FairyStockfishEngine::status() {
  const Node& n = node();
  Status st;
  st.in_check = n.in_check;
  const Color mover = side_to_move();
  if (n.moves.empty()) {
    // The variant's own verdict on a position without moves. Its score there is `mate 0`
    // whoever won (antichess's side without pieces has won, a checkmated side has lost), so
    // when a move led here the verdict is read one ply up, from the last move's own score
    // (`go depth 2 searchmoves LAST`, deep enough to search the position itself: `mate 1`
    // its mover won, `mate -1` lost, about `cp 0` a draw). A root position without moves
    // is asked over XBoard, whose result line names the winner (root_verdict: `mate 0`
    // alone cannot tell a win from a loss). Each is asked of the position alone, its
    // halfmove clock 0: Fairy-Stockfish's search scores an optional end first
    // (Position::is_optional_game_end: the n-move rule at a clock of 2 * nMoveRule unless in
    // check, a repetition), a draw the side may claim, not the game's end; xiangqi's
    // stalemate at halfmove 103 is lost by its stalemateValue, the claim reported apart
    // (claim_fifty below).
    auto alone = [&](const std::string& text) {
      auto fen = fields_of(text);
      if (fen.size() >= 6) fen[fen.size() - 2] = "0";  // the clock before the move number (3check: after N+M)
      std::string out;
      for (const auto& w : fen) out += (out.empty() ? "" : " ") + w;
      return out;
    };
    const Result win = mover == Color::White ? Result::WhiteWins : Result::BlackWins;
    const Result loss = mover == Color::White ? Result::BlackWins : Result::WhiteWins;
    // The score of a search: (kind, value) of its last `score` field.
    auto score = [&](const std::string& cmd) {
      proc_->write(cmd);
      std::vector<std::string> lines;
      read_until("bestmove", settings_.timeout, &lines);
      std::pair<std::string, long> out;
      for (const auto& l : lines) {
        auto w = fields_of(l);
        for (size_t i = 0; i + 2 < w.size(); ++i)
          if (w[i] == "score") out = {w[i + 1], std::strtol(w[i + 2].c_str(), nullptr, 10)};
      }
      return out;
    };
    std::optional<Result> verdict;
    if (!moves_.empty() && nodes_.size() >= 2) {
      // A drawn move scores a centipawn or two either side of 0 (the search's draw value).
      // A mate's result may depend on the checks that led to it (shatar's mate rule walks
      // the series of checks back), so a mate is asked after the moves that led to it: no
      // optional end applies to it (the n-move rule spares a mate, a mate repeats nothing).
      // Otherwise the parent with the move before it, when there is one: janggi's second
      // pass in a row ends the game only after the first (the parent's text alone would not
      // say so).
      const size_t k = nodes_.size();
      const std::string before =
          n.in_check ? position_command(root_, std::vector<std::string>(moves_.begin(), moves_.end() - 1))
          : k >= 3   ? position_command(alone(nodes_[k - 3].fen), {moves_[k - 3]})
                     : position_command(alone(nodes_[k - 2].fen), {});
      auto [kind, value] = score(before + "go depth 2 searchmoves " + moves_.back() + "\n");
      if (kind == "mate" && value != 0)
        verdict = value > 0 ? loss : win;  // the last move's mover is the other side
      else if (kind == "cp" && std::labs(value) <= 2)
        verdict = Result::Draw;
    }
    if (!verdict) verdict = root_verdict(alone(n.fen));
    st.result = *verdict;
    st.end = st.result == loss && st.in_check            ? Termination::Checkmate
             : st.result == Result::Draw && !st.in_check ? Termination::Stalemate
                                                         : Termination::NoLegalMove;
    st.reason = to_string(st.end);
  } else if (dead_rule_ && insufficient_material(n)) {
    st.result = settings_.draw_odds == 0   ? Result::WhiteWins
                : settings_.draw_odds == 1 ? Result::BlackWins
                                           : Result::Draw;
    st.end = Termination::InsufficientMaterial;
    st.reason = "insufficient-material";
  }
  auto f = fields_of(n.fen);  // the clock stands before the move number (3check: after N+M)
  st.claim_fifty = settings_.claim_fifty > 0 && f.size() > 5 &&
                   std::atoi(f[f.size() - 2].c_str()) >= settings_.claim_fifty;
  st.claim_threefold =
      settings_.claim_repetition > 0 && std::count_if(nodes_.begin(), nodes_.end(), [&](const Node& x) {
                                          return x.hash == n.hash;
                                        }) >= settings_.claim_repetition;
  return st;
}

int FairyStockfishEngine::clock_after(const Node& parent, const std::string& m, const Node& child) const {
  const auto pieces = [](const std::vector<char>& b) {
    return std::count_if(b.begin(), b.end(), [](char c) { return c != 0; });
  };
  if (pieces(child.board) < pieces(parent.board)) return 0;
  Coord from;
  size_t pos = 0;
  if (m.size() > 2 && m[1] != '@' && read_square(m, pos, from) && from.x >= 0 && from.x < width_ &&
      from.y >= 1 && from.y <= height_) {
    const char mover = parent.board[(from.y - 1) * width_ + from.x];
    if (mover && settings_.clock_resetters->find(upper(mover)) != std::string::npos) return 0;
  }
  const auto f = fields_of(parent.fen);
  return f.size() >= 6 ? std::atoi(f[f.size() - 2].c_str()) + 1 : 0;
}

uint64_t FairyStockfishEngine::hash() const {
  return node().hash;
}

Color FairyStockfishEngine::side_to_move() const {
  auto f = fields_of(node().fen);
  return f.size() > 1 && f[1] == "b" ? Color::Black : Color::White;
}

ActionInfo FairyStockfishEngine::describe(const Action& a) const {
  const std::string full = decode(a);
  if (const size_t comma = full.find(','); comma != std::string::npos) {
    // A move that places a wall square (duck chess, amazons, snailtrail): `e2e4,e4e5`, the
    // move, then the wall aimed from the mover's square.
    ActionInfo info = describe(encode(full.substr(0, comma)));
    Step w;
    w.kind = StepKind::Wall;
    w.phase = 1;
    size_t pos = comma + 1;
    if (!read_square(full, pos, w.from) || !read_square(full, pos, w.to) || pos != full.size())
      throw std::invalid_argument(name() + ": unreadable move `" + full + "`");
    info.steps.push_back(w);
    return info;
  }
  const std::string& m = full;
  const Node& n = node();
  auto at = [&](Coord c) -> char {
    if (c.x < 0 || c.x >= width_ || c.y < 1 || c.y > height_) return 0;
    return n.board[(c.y - 1) * width_ + c.x];
  };
  Step s;
  size_t pos = 0;
  if (m.size() > 3 && m[0] == '+' && m[2] == '@') {
    // A promoted drop (kyotoshogi's `drop promoted`): the type the ruleset promotes X to.
    s.kind = StepKind::Place;
    s.piece = upper(m[1]);
    if (auto it = settings_.promoted.find(s.piece); it != settings_.promoted.end()) s.piece = it->second;
    pos = 3;
    if (!read_square(m, pos, s.to)) throw std::invalid_argument(name() + ": unreadable move `" + m + "`");
    return ActionInfo{{s}};
  }
  if (m.size() > 2 && m[1] == '@') {
    s.kind = StepKind::Place;
    s.piece = upper(m[0]);
    pos = 2;
    if (!read_square(m, pos, s.to)) throw std::invalid_argument(name() + ": unreadable move `" + m + "`");
    return ActionInfo{{s}};
  }
  if (!read_square(m, pos, s.from) || !read_square(m, pos, s.to))
    throw std::invalid_argument(name() + ": unreadable move `" + m + "`");
  if (s.from == s.to && pos == m.size() && settings_.pass_in_place) {
    // Janggi's pass, the royal piece's square twice: a move in place, as the ruleset's `pass`
    // is written (lang's gen_interface.hpp).
    const char mover = at(s.from);
    if (!mover) throw std::invalid_argument(name() + ": `" + m + "` passes from an empty square");
    s.piece = upper(mover);
    return ActionInfo{{s}};
  }
  if (s.from == s.to && pos == m.size()) {
    // A pass (`passOnStalemate`: ataxx, flipello), written from and to the lowest own piece.
    Step pass;
    pass.kind = StepKind::Pass;
    return ActionInfo{{pass}};
  }
  if (pos < m.size()) s.promotion = upper(m[pos]);
  const char mover = at(s.from);
  if (!mover) throw std::invalid_argument(name() + ": `" + m + "` moves from an empty square");
  s.piece = upper(mover);
  if (s.promotion == '+')
    if (auto it = settings_.promoted.find(s.piece); it != settings_.promoted.end()) s.promotion = it->second;
  if (s.promotion == '-')  // a demotion (kyotoshogi): the type the mover was promoted from
    for (const auto& [base, promoted] : settings_.promoted)
      if (promoted == s.piece) s.promotion = base;
  const char target = at(s.to);
  const int dx = s.to.x - s.from.x;
  if (s.piece == settings_.castling_king && s.to.y == s.from.y && target &&
      is_white(target) == is_white(mover) &&
      settings_.castling_rooks.find(upper(target)) != std::string::npos) {
    // Castling, written king-takes-rook (Chess960 mode): the step names the rook's square
    // and the king's destination (the g or c file, counted from the board's edges).
    s.castle = dx > 0 ? Castle::KingSide : Castle::QueenSide;
    s.king_to = Coord{dx > 0 ? width_ - 2 : 2, s.from.y};
    return ActionInfo{{s}};
  }
  if (target) {
    s.removed.push_back(PieceAt{s.to, target});
  } else if (std::any_of(n.ep_moves.begin(), n.ep_moves.end(),
                         [&](const std::string& e) { return e.substr(0, e.find(',')) == m; })) {
    // (an en-passant move with a wall names the wall after a comma)
    // En passant: the pawn the engine named, else the one beside the mover (chess).
    const Coord victim = n.ep_victim ? *n.ep_victim : Coord{s.to.x, s.from.y};
    if (at(victim)) s.removed.push_back(PieceAt{victim, at(victim)});
  }
  return ActionInfo{{s}};
}

uint64_t FairyStockfishEngine::perft(int depth) {
  if (depth <= 0) return 1;
  if (depth == 1) return node().moves.size();
  proc_->write(position_command(root_, moves_) + "go perft " + std::to_string(depth) + "\n");
  // One line per root move; a subtree may take a while.
  std::string total = read_until("Nodes searched: ", std::max(settings_.timeout, 300.0), nullptr);
  return std::strtoull(total.c_str() + 16, nullptr, 10);
}

}  // namespace arb::fsf
