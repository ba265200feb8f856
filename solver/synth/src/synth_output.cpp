// The output: a model's position text, and the encoding compared with the generator on a
// given position (compare_encoding).
#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "arbiter/chessme_text.hpp"
#include "arbiter/fen.hpp"
#include "arbiter/nostress_text.hpp"
#include "arbiter/notation.hpp"
#include "synthesizer.hpp"

namespace arb::synth::detail {

std::string Synth::text_of(const z3::model& m, int& pieces) {
  pieces = 0;
  std::vector<std::pair<Coord, char>> placed;
  for (int x = 0; x < g_.ncells; ++x)
    for (int c = 0; c < 2; ++c)
      for (int t = 0; t < g_.nt; ++t)
        if (g_.inner[x] && on(m, enc_->pc(P_, x, c, t))) {
          char l = g_.letters[t];
          placed.push_back(
              {g_.coord[x], c ? static_cast<char>(std::tolower(static_cast<unsigned char>(l))) : l});
          ++pieces;
        }
  std::string hands[2];
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < g_.nt; ++t)
      for (int i = 0; i < hand_[c][t]; ++i)
        hands[c].push_back(c ? static_cast<char>(std::tolower(static_cast<unsigned char>(g_.letters[t])))
                             : g_.letters[t]);
  if (g_.grid) {
    ChessMePosition cp;
    cp.pieces = placed;
    cp.side = r_.side;
    cp.hand[0] = hands[0];
    cp.hand[1] = hands[1];
    return format_chessme(cp);
  }
  FenFields f;
  f.width = g_.width;
  f.height = g_.height;
  f.cells.assign(g_.width * g_.height, 0);
  for (const auto& [co, ch] : placed) f.at(co) = ch;
  f.has_reserve = g_.has_reserve;
  f.reserve = hands[0] + hands[1];
  f.side = r_.side;
  return cards_ ? format_fen(f) + card_fields(m) : format_fen(f);
}

std::string Synth::first_field(const std::string& text) {
  return text.substr(0, text.find_first_of(" ["));
}

std::string Synth::board_field(const z3::model& m, const Board& b) {
  FenFields f;
  f.width = g_.width;
  f.height = g_.height;
  f.cells.assign(g_.width * g_.height, 0);
  for (int x = 0; x < g_.ncells; ++x)
    for (int c = 0; c < 2; ++c)
      for (int t = 0; t < g_.nt; ++t)
        if (on(m, enc_->pc(b, x, c, t)))
          f.at(g_.coord[x]) =
              c ? static_cast<char>(std::tolower(static_cast<unsigned char>(g_.letters[t]))) : g_.letters[t];
  return first_field(format_fen(f));
}

size_t Synth::nth_space(const std::string& s, int n) {
  size_t at = 0;
  for (int i = 0; i < n && at != std::string::npos; ++i) at = s.find(' ', at + (i ? 1 : 0));
  return at;
}

std::vector<std::string> Synth::compare(const std::string& position) {
  std::vector<std::string> out;
  const Program& p = *p_;
  std::string lower;
  for (char ch : p.letters) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  FenFields f = parse_fen(position, p.width, p.height, p.letters + lower);
  const Logic& L = enc_->L;
  Board b;
  for (int x = 0; x < g_.ncells; ++x) {
    char ch = f.at(g_.coord[x]);
    for (int c = 0; c < 2; ++c)
      for (int t = 0; t < g_.nt; ++t) {
        char l =
            c ? static_cast<char>(std::tolower(static_cast<unsigned char>(g_.letters[t]))) : g_.letters[t];
        b.pc.push_back(ch == l ? L.T : L.F);
      }
    b.col.push_back(ch && std::isupper(static_cast<unsigned char>(ch)) ? L.T : L.F);
    b.col.push_back(ch && std::islower(static_cast<unsigned char>(ch)) ? L.T : L.F);
    b.occ.push_back(ch ? L.T : L.F);
  }
  auto holds = [&](const z3::expr& e) { return e.simplify().is_true(); };
  Engine& e = *engine_;
  e.set_position(position);
  const int c = e.side_to_move() == Color::White ? 0 : 1;
  if (holds(enc_->royal_attacked(b, c)) != e.status().in_check) out.push_back("in-check differs");
  std::set<std::tuple<int, int, int>> gen, enc;  // (kind, from, to or direction)
  std::vector<Action> acts;
  e.legal_actions(acts);
  for (const Action& a : acts) {
    ActionInfo info = e.describe(a);
    const Step& st = info.steps[0];
    if (st.castle != Castle::None || st.kind == StepKind::Place) continue;
    int t = type_of(g_, st.piece), fr = g_.cell(st.from.x, st.from.y), to = g_.cell(st.to.x, st.to.y);
    const lang::PieceProgram& pp = p.types[t];
    if (st.kind == StepKind::Remove && st.to == st.from)  // a whirlwind
      gen.insert({3, fr, fr});
    else if (st.kind == StepKind::Remove)  // a strike
      gen.insert({2, fr, to});
    else if (pp.rampage.reach > 0 && !st.removed.empty() &&
             !(st.removed.size() == 1 && st.removed[0].at == st.to && captures_to(c, t, fr, to)))
      gen.insert({4, fr,
                  lang::unit_dir((st.to.x > st.from.x) - (st.to.x < st.from.x),
                                 (st.to.y > st.from.y) - (st.to.y < st.from.y))});
    else
      gen.insert({0, fr, to});
  }
  for (int fr = 0; fr < g_.ncells; ++fr)
    for (int t = 0; t < g_.nt; ++t) {
      if (L.is_F(enc_->pc(b, fr, c, t))) continue;
      std::set<int> tos;
      for (const Target& tg : g_.targets[c][fr * g_.nt + t]) tos.insert(tg.to);
      for (int to : tos)
        if (holds(enc_->legal_move(b, c, t, fr, to))) enc.insert({0, fr, to});
      const lang::PieceProgram& pp = p.types[t];
      for (const auto& l : pp.strike.lines[c])
        for (int to : line_cells(g_, fr, l.d, l.range))
          if (holds(enc_->legal_strike(b, c, t, fr, to))) enc.insert({2, fr, to});
      if (holds(enc_->legal_whirl(b, c, t, fr))) enc.insert({3, fr, fr});
      for (int d = 0; d < 8; ++d)
        if (holds(enc_->legal_rampage(b, c, t, fr, d))) enc.insert({4, fr, d});
    }
  auto name = [&](const std::tuple<int, int, int>& k) {
    auto [kind, fr, to] = k;
    static const char* kinds[] = {"move", "place", "strike", "whirlwind", "rampage"};
    std::string s = std::string(kinds[kind]) + " " + square_name(g_.coord[fr]);
    s += kind == 4 ? " dir " + std::to_string(to) : " " + square_name(g_.coord[to]);
    return s;
  };
  for (const auto& k : gen)
    if (!enc.count(k)) out.push_back("generator only: " + name(k));
  for (const auto& k : enc)
    if (!gen.count(k)) out.push_back("encoding only: " + name(k));
  return out;
}

}  // namespace arb::synth::detail
