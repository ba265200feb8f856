// The orthodox pieces as vector figurines (see diagram.hpp). Each shape is drawn in a
// 100 x 100 box (x right, y down, the base near y = 88) from straight lines, arcs and
// Bezier curves chosen for this file; the diagram scales it into a square. Nothing here
// depends on a font: a browser without any chess font draws the same picture.
#include <sstream>

#include "arbiter/synth/diagram.hpp"

namespace arb::synth {

namespace {

struct Shape {
  const char* name;
  const char* body;    // filled with the side's colour, outlined
  const char* detail;  // stroked in the contrasting colour (may be empty)
};

// A common plinth for every piece: a flat base plate.
#define PLINTH "M24 80 H76 V89 H24 Z "

constexpr Shape kShapes[] = {
    {"king",
     // A cross over a rounded body on the plinth.
     "M46 8 H54 V15 H61 V23 H54 V30 H46 V23 H39 V15 H46 Z "
     "M50 32 C30 32 18 46 28 64 L33 78 H67 L72 64 C82 46 70 32 50 32 Z " PLINTH,
     "M33 66 H67"},
    {"queen",
     // A crown of five points, each topped by a ball.
     "M22 38 L33 78 H67 L78 38 L63 58 L64 28 L55 54 L50 25 L45 54 L36 28 L37 58 Z "
     "M22 31 A5 5 0 1 0 22.01 31 Z M36 21 A5 5 0 1 0 36.01 21 Z M50 17 A5 5 0 1 0 50.01 17 Z "
     "M64 21 A5 5 0 1 0 64.01 21 Z M78 31 A5 5 0 1 0 78.01 31 Z " PLINTH,
     "M33 68 H67"},
    {"rook",
     // A tower with three merlons.
     "M24 89 H76 V80 H70 L66 44 H72 V22 H64 V30 H56 V22 H44 V30 H36 V22 H28 V44 H34 L30 80 H24 Z",
     "M34 44 H66 M31 72 H69"},
    {"bishop",
     // A mitre with its slit, a ball on top, a collar and a flared foot.
     "M50 8 A6 6 0 1 0 50.01 8 Z "
     "M50 16 C34 28 28 44 36 58 H64 C72 44 66 28 50 16 Z "
     "M36 60 H64 V67 H36 Z M40 69 H60 L66 80 H34 Z " PLINTH,
     "M44 42 L58 28 M50 34 V50"},
    {"knight",
     // A horse's head looking left: ears, muzzle, mane down to the base.
     "M30 80 C30 66 38 58 46 52 L36 56 C30 60 22 60 20 54 L24 44 C28 34 36 26 46 22 "
     "L48 12 L55 20 C68 26 76 44 74 80 Z " PLINTH,
     "M40 34 A3 3 0 1 0 40.01 34 M62 30 C68 42 70 58 68 76"},
    {"pawn",
     // A ball on a collar and a cone.
     "M50 16 A13 13 0 1 0 50.01 16 Z M38 44 H62 V50 H38 Z "
     "M41 52 H59 C60 64 66 72 72 80 H28 C34 72 40 64 41 52 Z " PLINTH,
     ""},
};

#undef PLINTH

}  // namespace

bool has_figurine(const std::string& name) {
  for (const Shape& s : kShapes)
    if (name == s.name) return true;
  return false;
}

std::string figurine_svg(const std::string& name, bool white, int cx, int cy, int size) {
  for (const Shape& s : kShapes) {
    if (name != s.name) continue;
    std::ostringstream o;
    // Stroke widths are in box units: about 1.3 px at the diagram's 44 px squares.
    o << "<g class=\"figurine " << s.name << "\" transform=\"translate(" << cx - size / 2 << " "
      << cy - size / 2 << ") scale(" << size / 100.0 << ")\"><path d=\"" << s.body << "\" fill=\""
      << (white ? "#ffffff" : "#222222")
      << "\" stroke=\"#000000\" stroke-width=\"3\" stroke-linejoin=\"round\"/>";
    if (*s.detail)
      o << "<path d=\"" << s.detail << "\" fill=\"none\" stroke=\"" << (white ? "#000000" : "#ffffff")
        << "\" stroke-width=\"2.5\" stroke-linecap=\"round\"/>";
    o << "</g>";
    return o.str();
  }
  return "";
}

}  // namespace arb::synth
