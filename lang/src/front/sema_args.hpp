// Argument helpers: values, numbers, ranks, letters, decks and cards, regions.
//
// A part of the body of class Checker (sema.cpp includes it inside the class, in this
// place): member functions moved out of sema.cpp unchanged. Not a standalone header;
// include it nowhere else. clang-format would unindent it: it is formatted as part of
// the class.
// clang-format off

  // ---- argument helpers -------------------------------------------------------------
  Value resolve(const Value& v) {
    if (v.kind != ValueKind::Word || v.text.empty() || v.text[0] != '$') return v;
    std::string name = v.text.substr(1);
    const OptionDef* o = m_.option(name);
    if (!o) {
      std::vector<std::string> names;
      for (const auto& op : m_.options) names.push_back(op.name);
      d_.error(v.loc, "unknown option `" + name + "`", did_you_mean_or_list(name, names));
      return v;
    }
    Value r = v;
    r.text = o->value;
    bool numeric = !o->value.empty() && std::all_of(o->value.begin(), o->value.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
    if (numeric) {
      auto n = arb::parse_integer(o->value, 0, 999999999999999);
      if (!n) {
        d_.error(v.loc, "option `" + name + "` = " + o->value + ": number too large (at most 15 digits)");
        return v;
      }
      r.kind = ValueKind::Number;
      r.num = *n;
    }
    return r;
  }
  bool want_args(const Stmt& s, size_t lo, size_t hi, const char* form) {
    if (s.args.size() < lo || s.args.size() > hi) {
      Loc l = s.args.size() > hi ? s.args[hi].loc : s.loc;
      d_.error(l, "`" + s.keyword + "` takes " + form, "write it as `" + s.keyword + " " + form + "`");
      return false;
    }
    return true;
  }
  void no_block(const Stmt& s) {
    if (s.has_block) d_.error(s.loc, "`" + s.keyword + "` takes no block");
  }
  void unknown(const Stmt& s, const std::vector<std::string>& allowed, const char* where) {
    d_.error(s.loc, "unknown " + std::string(where) + " `" + s.keyword + "`",
             did_you_mean_or_list(s.keyword, allowed));
  }
  std::optional<int> number(const Value& raw, const char* what, long long lo = 0, long long hi = 1000000) {
    Value v = resolve(raw);
    if (v.kind != ValueKind::Number) {
      d_.error(v.loc, std::string("expected ") + what + ", found `" + v.text + "`");
      return std::nullopt;
    }
    if (v.num < lo || v.num > hi) {
      d_.error(v.loc,
               std::string(what) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi));
      return std::nullopt;
    }
    return static_cast<int>(v.num);
  }
  std::optional<Range> ranks(const Value& raw) {
    Value v = resolve(raw);
    // A rank is an int (the grid's coordinates are int32): a larger number is refused
    // here, never wrapped to some other rank.
    auto out_of_int = [&](long long n) {
      if (n >= INT32_MIN && n <= INT32_MAX) return false;
      d_.error(v.loc, "rank " + std::to_string(n) + " is out of range",
               "a rank is between -2147483648 and 2147483647");
      return true;
    };
    if (v.kind == ValueKind::Number) {
      if (out_of_int(v.num)) return std::nullopt;
      return Range{static_cast<int>(v.num), static_cast<int>(v.num)};
    }
    if (v.kind == ValueKind::Range) {
      if (out_of_int(v.lo) || out_of_int(v.hi)) return std::nullopt;
      if (v.lo > v.hi) {
        d_.error(v.loc, "empty rank range", "write the lower rank first");
        return std::nullopt;
      }
      return Range{static_cast<int>(v.lo), static_cast<int>(v.hi)};
    }
    d_.error(v.loc, "expected a rank or a range such as `1..4`, found `" + v.text + "`");
    return std::nullopt;
  }
  bool piece_letter(const Value& v, char& out) {
    if (v.kind != ValueKind::Word || v.text.size() != 1 ||
        !std::isupper(static_cast<unsigned char>(v.text[0]))) {
      d_.error(v.loc, "expected a piece letter (one upper-case letter), found `" + v.text + "`");
      return false;
    }
    out = v.text[0];
    return true;
  }
  // `deck shared { card NAME LETTER*COUNT ... again ... }`: every argument checked where it
  // stands; the letters are checked against the pieces by the compile step (card_compile.cpp).
  void deck(const Stmt& s) {
    static const char* kForm = "write it as `deck shared { card NAME LETTER*COUNT ... }`";
    m_.deck.clear();
    m_.deck_cards.clear();
    m_.deck_loc = s.loc;
    if (s.args.empty())
      d_.error(s.loc, "`deck` needs `shared` (one draw pile for both players)", kForm);
    else if (!s.args[0].is("shared"))
      d_.error(s.args[0].loc, "`deck` takes shared, found `" + s.args[0].text + "`", kForm);
    for (size_t i = 1; i < s.args.size(); ++i)
      d_.error(s.args[i].loc, "unexpected `" + s.args[i].text + "` in `deck`", kForm);
    if (!s.has_block) d_.error(s.loc, "`deck` needs a block of `card` statements", kForm);
    for (const Stmt& c : body(s)) dispatch(Scope::Deck, c);
    use(ConstructId::Deck, s.loc);
  }
  // `card NAME LETTER*COUNT`
  void card(const Stmt& c) {
    use(ConstructId::Card, c.loc);
    static const char* kCard =
        "write it as `card NAME LETTER*COUNT`, e.g. `card pawn P*11` or `card again Again*6`";
    if (c.args.size() != 2) {
      d_.error(c.args.size() > 2 ? c.args[2].loc : c.loc,
               c.args.size() > 2 ? "unexpected `" + c.args[2].text + "` in `card`"
                                 : std::string("`card` takes a name and `LETTER*COUNT`"),
               kCard);
      return;
    }
    const Value& name = c.args[0];
    if (name.kind != ValueKind::Word) {
      d_.error(name.loc, "a card's name is a word, found `" + name.text + "`", kCard);
      return;
    }
    const Value& v = c.args[1];
    const std::string& t = v.text;
    size_t star = t.find('*');
    std::string letter = t.substr(0, star), n = star == std::string::npos ? "" : t.substr(star + 1);
    Loc nloc = v.loc;
    if (star != std::string::npos) nloc.col += static_cast<int>(star + 1);
    if (v.kind != ValueKind::Word || letter.empty() ||
        !(letter == "Again" || (letter.size() == 1 && std::isupper(static_cast<unsigned char>(letter[0]))))) {
      d_.error(v.loc, "expected a piece letter or `Again`, found `" + t + "`", kCard);
      return;
    }
    if (n.empty() || !std::all_of(n.begin(), n.end(),
                                  [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) {
      d_.error(v.loc,
               "expected `LETTER*COUNT` with a count of 1.." + std::to_string(kNoStressMaxKindCount) +
                   ", found `" + t + "`",
               kCard);
      return;
    }
    int count = n.size() > 3 ? kNoStressMaxKindCount + 1 : std::stoi(n);
    if (count < 1 || count > kNoStressMaxKindCount) {
      d_.error(nloc, "a card count must be 1.." + std::to_string(kNoStressMaxKindCount) + ", found " + n,
               "leave a kind out of the deck instead of writing it with no cards");
      return;
    }
    const char l = letter == "Again" ? 'A' : letter[0];
    bool twice = false;
    for (const Model::DeckCard& o : m_.deck_cards) twice = twice || o.letter == l;
    if (twice) {
      d_.error(v.loc, "the cards `" + letter + "` are listed twice in the deck",
               "state each kind once, with its count");
      return;
    }
    m_.deck_cards.push_back(Model::DeckCard{name.text, l, count, v.loc});
    m_.deck.append(static_cast<size_t>(count), l);
  }

  // Letters such as `Q R*2 P*8` into a string of letters (at most kMaxLetterCount of a kind).
  static constexpr int64_t kMaxLetterCount = 999;
  std::string letter_list(const std::vector<Value>& args, size_t from) {
    std::string out;
    for (size_t i = from; i < args.size(); ++i) {
      const Value& v = args[i];
      std::string t = v.text;
      int count = 1;
      size_t star = t.find('*');
      if (star != std::string::npos) {
        std::string n = t.substr(star + 1);
        if (n.empty() || !std::all_of(n.begin(), n.end(),
                                      [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
          d_.error(v.loc, "expected `LETTER*COUNT`, found `" + t + "`");
          continue;
        }
        auto c = arb::parse_integer(n, 1, kMaxLetterCount);
        if (!c) {
          d_.error(v.loc, "a count must be 1.." + std::to_string(kMaxLetterCount) + ", found `" + n +
                              "` in `" + t + "`");
          continue;
        }
        count = static_cast<int>(*c);
        t = t.substr(0, star);
      }
      if (v.kind != ValueKind::Word || t.empty() || !std::isupper(static_cast<unsigned char>(t[0])) ||
          (t.size() > 1 && t != "Again")) {
        d_.error(v.loc, "expected a piece letter, found `" + v.text + "`");
        continue;
      }
      for (int k = 0; k < count; ++k) out += t.size() == 1 ? t : "*";
    }
    return out;
  }
  // Records a use of a custom construct (its payload is in the model's fields).
  void use(ConstructId id, const Loc& loc) { m_.constructs.push_back(ConstructUse{id, loc, {}, group_}); }
  // Checks a schema construct and records its typed use; false on errors.
  std::optional<ConstructUse> typed(const ConstructDef& def, const Stmt& s) {
    auto u = check_construct(def, s, d_, [this](const Value& v) { return resolve(v); });
    if (u) u->group = group_;
    // A region argument names a region declared before (or a built-in one).
    if (u)
      for (size_t i = 0; i < def.args.size(); ++i)
        if (def.args[i].type == ArgType::Region && u->args[i].present && !known_region(u->args[i].text)) {
          unknown_region(u->args[i].text, u->args[i].loc);
          return std::nullopt;
        }
    return u;
  }
  bool known_region(const std::string& name) const {
    const auto& b = builtin_regions();
    if (std::find(b.begin(), b.end(), name) != b.end()) return true;
    return std::any_of(m_.regions.begin(), m_.regions.end(),
                       [&](const RegionDef& r) { return r.name == name; });
  }
  void unknown_region(const std::string& name, const Loc& loc) {
    std::vector<std::string> names = builtin_regions();
    for (const RegionDef& r : m_.regions) names.push_back(r.name);
    std::string hint = did_you_mean(name, names);
    d_.error(loc, "unknown region `" + name + "`",
             hint.empty() ? "declare it before with `region " + name +
                                " AREA...` (squares `e4`, rectangles "
                                "`d1-f3`, `ranks 1..5`)"
                          : hint);
  }

  // `region NAME AREA... [mirrored]`: AREA is a square `e4`, a rectangle `d1-f3` (corners)
  // or `ranks R` (`ranks 1..5`, `rank 8`), White's view; Black's squares are the same, or
  // with `mirrored` the same seen from Black's side.
  void region(const Stmt& s) {
    const char* form =
        "write it as `region NAME AREA... [mirrored|rotated]`, AREA a square `e4`, a rectangle `d1-f3` or "
        "`ranks "
        "1..5`";
    use(ConstructId::RegionDecl, s.loc);
    if (s.has_block) d_.error(s.loc, "`region` takes no block", form);
    if (s.args.empty() || s.args[0].kind != ValueKind::Word) {
      d_.error(s.args.empty() ? s.loc : s.args[0].loc, "`region` needs a name", form);
      return;
    }
    RegionDef r;
    r.name = s.args[0].text;
    r.loc = s.loc;
    const auto& b = builtin_regions();
    if (std::find(b.begin(), b.end(), r.name) != b.end()) {
      d_.error(s.args[0].loc, "`" + r.name + "` is a built-in region", "choose another name");
      return;
    }
    // A square `e4`: file letter a..p, rank 1..99.
    auto square = [](const std::string& t, int& x, int& y) {
      if (t.size() < 2 || t.size() > 3 || t[0] < 'a' || t[0] > 'p') return false;
      for (size_t i = 1; i < t.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(t[i]))) return false;
      x = t[0] - 'a';
      y = std::stoi(t.substr(1)) - 1;
      return y >= 0;
    };
    bool ok = true;
    for (size_t i = 1; i < s.args.size(); ++i) {
      const Value& v = s.args[i];
      int x0, y0, x1, y1;
      if (v.is("mirrored")) {
        r.mirrored = true;
      } else if (v.is("rotated")) {
        r.rotated = true;
      } else if (v.is("ranks") || v.is("rank")) {
        if (i + 1 >= s.args.size()) {
          d_.error(v.loc, "`" + v.text + "` needs a rank or a range such as `1..5`", form);
          ok = false;
          break;
        }
        auto rg = ranks(s.args[++i]);
        if (!rg) {
          ok = false;
          continue;
        }
        r.rects.push_back({0, rg->lo - 1, RegionDef::kAllFiles, rg->hi - 1, s.args[i].loc});
      } else if (v.kind == ValueKind::Word && square(v.text, x0, y0)) {
        r.rects.push_back({x0, y0, x0, y0, v.loc});
      } else if (size_t dash = v.text.find('-'); v.kind == ValueKind::Word && dash != std::string::npos &&
                                                 square(v.text.substr(0, dash), x0, y0) &&
                                                 square(v.text.substr(dash + 1), x1, y1)) {
        r.rects.push_back({std::min(x0, x1), std::min(y0, y1), std::max(x0, x1), std::max(y0, y1), v.loc});
      } else {
        d_.error(v.loc, "unexpected `" + v.text + "` in `region`", form);
        ok = false;
      }
    }
    if (ok && r.rects.empty()) d_.error(s.loc, "`region " + r.name + "` has no squares", form);
    if (!ok || r.rects.empty()) return;
    for (RegionDef& e : m_.regions)
      if (e.name == r.name) {
        e = r;
        return;
      }
    m_.regions.push_back(r);
  }
  // A new top-level statement replaces the parent's uses of the same group.
  void begin_group(const std::string& g) {
    group_ = g;
    std::erase_if(m_.constructs, [&](const ConstructUse& u) { return u.group == g; });
  }
  std::string group_;
// clang-format on
