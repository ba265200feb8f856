// PGN reading for record validation: a byte source (plain or zstd-compressed file, or
// standard input), a splitter that cuts the stream into game texts in bounded memory, and
// a tokenizer that turns one game text into tags and movetext tokens with line and column.
//
// Real-world PGN is accepted: a UTF-8 byte-order mark, CRLF line ends, `{...}` and `;`
// comments, NAGs (`$1`) and suffix annotations (`!?`), `%` escape lines, recursive
// variations, move numbers glued to moves (`1.e4`, `12...Nf6`), missing or extra tags,
// games without tags, and no blank line between games. Squares in the general form
// `(x,y)` (ChessMe) are read as squares, not as variations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace arb::records {

// Input that cannot be read as PGN at all (missing file, corrupt zstd frame, binary data,
// a game over the size limit): exit 2 for the command.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A stream of bytes: a file, plain, zstd, gzip or bzip2 (told by its content, the magic
// number), or stdin ("-").
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to `n` bytes into `buf`; 0 at the end. Throws InputError.
  virtual size_t read(char* buf, size_t n) = 0;
};
// `consumed`, when given, counts the bytes read from the file as stored (for progress).
std::unique_ptr<ByteSource> open_source(const std::string& path, uint64_t* consumed = nullptr);
// A source over bytes in memory (tests, the fuzz target); zstd detected as for files.
std::unique_ptr<ByteSource> memory_source(std::string bytes);

// The largest game text read (a record longer than this is unusable input).
constexpr size_t kMaxGameBytes = size_t{64} << 20;
// Bounds on what one game may hold, so that memory stays bounded whatever the input: past
// kMaxTokens movetext tokens the rest of the game is not read, and variations nested deeper
// than kMaxNesting are not walked (each an error with code `limit` where it was hit).
constexpr size_t kMaxTokens = size_t{1} << 20;
constexpr int kMaxNesting = 100;

// One game's text as it stands in the file (every line, escape lines included), with the
// number of its first line (1-based).
struct GameText {
  std::string_view text;
  uint64_t first_line = 1;
};

// Cuts a byte source into games. A game starts at a tag line (`[` first on the line) after
// movetext or a result, or at the first movetext after a result; text that holds neither
// a tag nor movetext (a trailing comment) is no game.
class Splitter {
 public:
  explicit Splitter(std::unique_ptr<ByteSource> src, std::string name = "");
  // The next game, appended to `out` (text valid until out is cleared): true when one was
  // read. Throws InputError.
  bool next(std::string& out, uint64_t& first_line);
  // Of the game next() read last: whether the file's byte-order mark stood before it and
  // whether any of its lines ended in CRLF.
  bool game_bom() const { return game_bom_; }
  bool game_crlf() const { return game_crlf_; }
  // The line of the tag that cut it when the game has no result and the next game's tags
  // follow its movetext (0 otherwise).
  uint64_t game_cut() const { return game_cut_; }

 private:
  bool fill();  // more bytes into buf_; false at the end of the source
  bool read_line(std::string_view& line);

  std::unique_ptr<ByteSource> src_;
  std::string name_;
  std::vector<char> buf_;
  size_t begin_ = 0, end_ = 0;
  bool eof_ = false, first_chunk_ = true;
  uint64_t line_no_ = 0;
  uint64_t game_cut_ = 0;
  bool bom_ = false, bom_reported_ = false, line_crlf_ = false, game_bom_ = false, game_crlf_ = false;
  std::string carry_;  // a line that spans two reads
  // A line read ahead that starts the next game.
  bool pending_ = false;
  std::string pending_line_;
  uint64_t pending_no_ = 0;
  bool pending_crlf_ = false;
};

// Tokens of a game.
enum class TokKind : uint8_t { Move, Open, Close, Result, Null };  // Null: `--`, `Z0`, `0000`, `@@@@`
struct Token {
  TokKind kind;
  std::string_view text;  // the action text without move number and annotation marks
  uint32_t line = 0, column = 0;
  bool mate_mark = false;   // written with `#`
  bool check_mark = false;  // written with `+`
};
struct Tag {
  std::string name, value;
  uint32_t line = 0, value_column = 0;  // where the value starts
};
struct ParsedGame {
  std::vector<Tag> tags;
  std::vector<Token> tokens;
  // The first problem in the text itself (an unterminated tag or comment, a stray
  // character): empty when none.
  std::string error;
  uint32_t error_line = 0, error_column = 0;
  // Every problem in the text, errors and warnings (an unescaped quote in a tag value),
  // in text order; `error` above repeats the first error.
  struct Issue {
    bool error = true;
    std::string code, message;
    uint32_t line = 0, column = 0;
  };
  std::vector<Issue> issues;
  // Set by the reader of the file: a byte-order mark before this game (the file's first),
  // CRLF line ends in it.
  bool bom = false, crlf = false;
  uint32_t cut_line = 0;                                // Splitter::game_cut()
  const std::string* tag(std::string_view name) const;  // nullptr when absent
  void clear();
};
// Tokenizes `text` (whose first line has number `first_line`) into `out`; never throws.
void parse_game(std::string_view text, uint64_t first_line, ParsedGame& out);

// Whether `t` is a game termination marker: 1-0, 0-1, 1/2-1/2, *.
bool is_result(std::string_view t);

}  // namespace arb::records
