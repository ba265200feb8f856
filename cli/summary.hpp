// The short Markdown summary of a check (`--summary FILE` of fuzz and mutate), for a pull
// request's page: a title line, the counts, and for each divergence a text diagram of its
// position in a code block.
#pragma once

#include <map>
#include <string>

namespace arb::cli {

// The position as a text diagram: ranks top down, `.` for an empty square, files lettered
// below; the grid's text is drawn around its pieces (synth/diagram.hpp's elision); lines
// for the side to move and the off-board parts, then the legend naming every letter
// (`names`: the ruleset's pieces; empty: the orthodox K Q R B N P). The text itself when
// it does not read.
std::string text_diagram(const std::string& position, const std::map<char, std::string>& names = {});

// One divergence as Markdown: a heading, the lines of `body` as a list, and the diagram.
std::string markdown_divergence(const std::string& heading, const std::string& body,
                                const std::string& position, const std::map<char, std::string>& names = {});

}  // namespace arb::cli
