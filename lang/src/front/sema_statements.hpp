// The top-level statements: ruleset, options, reserve, `when`, board, piece.
//
// A part of the body of class Checker (sema.cpp includes it inside the class, in this
// place): member functions moved out of sema.cpp unchanged. Not a standalone header;
// include it nowhere else. clang-format would unindent it: it is formatted as part of
// the class.
// clang-format off

  // ---- statements ---------------------------------------------------------------------
  void statement(const Stmt& s, bool is_root) {
    const std::string& k = s.keyword;
    is_root_ = is_root;
    if (k == "when") {
      when(s, is_root);
      return;
    }
    // Statements that merge by name keep one group per name; the others replace the
    // parent's statement of the same keyword.
    if (k == "option" || k == "army" || k == "piece" || k == "region")
      begin_group(k + " " + (s.args.empty() ? "" : s.args[0].text));
    else
      begin_group(k);
    dispatch(Scope::Top, s);
  }
  void when_stmt(const Stmt& s) { when(s, is_root_); }
  void ruleset_stmt(const Stmt& s) {
    // Handled by the loader (name and `extends`).
    if (s.args.empty())
      d_.error(s.loc, "`ruleset` needs a name", "write it as `ruleset NAME [extends PARENT]`");
    if (is_root_ && !s.args.empty()) {
      m_.name = s.args[0].text;
      m_.name_loc = s.args[0].loc;
    }
    use(ConstructId::Ruleset, s.loc);
  }
  void option_stmt(const Stmt& s) {
    option(s);
    use(ConstructId::Option, s.loc);
  }
  void reserve(const Stmt& s) {
    no_block(s);
    m_.reserve = letter_list(s.args, 0);
    m_.reserve_loc = s.loc;
    if (m_.reserve.empty())
      d_.error(s.loc, "`reserve` needs the pieces each side holds", "e.g. `reserve K Q R*2`");
    use(ConstructId::Reserve, s.loc);
  }
  void pile(const Stmt& s) {
    std::vector<Value> letters;
    for (size_t i = 0; i < s.args.size(); ++i) {
      if (s.args[i].is("shuffled")) {
        m_.pile_shuffled = true;
        if (i + 1 < s.args.size() && s.args[i + 1].is("seed")) {
          if (i + 2 >= s.args.size()) {
            d_.error(s.args[i + 1].loc, "`seed` needs a number");
          } else if (auto n = number(s.args[i + 2], "a seed", 0, 2000000000)) {
            m_.pile_seed = static_cast<uint64_t>(*n);
          }
          i += 2;
        }
        continue;
      }
      letters.push_back(s.args[i]);
    }
    m_.pile = letter_list(letters, 0);
    m_.pile_loc = s.loc;
    if (m_.pile.empty()) d_.error(s.loc, "`pile` needs the tiles of each side's pile");
    use(ConstructId::Pile, s.loc);
  }
  void fairy_stockfish(const Stmt& s) {
    // One word, the variant's UCI name: letters, digits, `-` and `_` (what a UCI option
    // value and an ini section name can hold).
    if (want_args(s, 1, 1, "NAME")) {
      const Value& v = s.args[0];
      const bool word = !v.text.empty() && std::all_of(v.text.begin(), v.text.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_';
      });
      if ((v.kind != ValueKind::Word && v.kind != ValueKind::String) || !word) {
        d_.error(
            v.loc,
            "`fairy-stockfish` takes the variant's name (letters, digits, - and _), found `" + v.text + "`",
            "write it as `fairy-stockfish knightmate`");
      } else {
        m_.fsf_variant = v.text;
        m_.fsf_variant_of = m_.name;
        m_.fsf_loc = v.loc;
      }
    }
    use(ConstructId::FairyStockfish, s.loc);
  }

  // `when OPTION = VALUE { ... }` / `when OPTION != VALUE { ... }`: the block's statements
  // are read in place, as statements of the block the `when` stands in (the top level, a
  // piece, `end`, `legal`, an army, ...), when the option (as --set leaves it) has (or has
  // not) that value; otherwise they are skipped. `when` blocks nest. The option must be
  // declared before, and the value must be one it may take. Returns whether the block is
  // read (false after an error).
  bool when_holds(const Stmt& s) {
    const char* form = "write it as `when OPTION = VALUE { ... }` or `when OPTION != VALUE { ... }`";
    use(ConstructId::When, s.loc);
    if (s.args.size() != 3 || !(s.args[1].is("=") || s.args[1].is("!="))) {
      d_.error(s.args.empty() ? s.loc : s.args.back().loc,
               "`when` takes `OPTION = VALUE` or `OPTION != VALUE`", form);
      return false;
    }
    if (!s.has_block) {
      d_.error(s.loc, "`when` needs a `{ ... }` block of statements", form);
      return false;
    }
    const bool negate = s.args[1].is("!=");
    const Value& name = s.args[0];
    const Value& value = s.args[2];
    const OptionDef* o = m_.option(name.text);
    if (!o) {
      std::vector<std::string> names;
      for (const auto& op : m_.options) names.push_back(op.name);
      d_.error(
          name.loc, "`when`: unknown option `" + name.text + "`",
          names.empty() ? "declare it first with `option NAME = DEFAULT`" : did_you_mean(name.text, names));
      return false;
    }
    if (!o->choices.empty() &&
        std::find(o->choices.begin(), o->choices.end(), value.text) == o->choices.end()) {
      std::string list;
      for (const auto& c : o->choices) list += (list.empty() ? "" : ", ") + c;
      d_.error(value.loc,
               "`when`: option `" + o->name + "` takes one of " + list + ", not `" + value.text + "`",
               did_you_mean(value.text, o->choices));
      return false;
    }
    // Without `one-of`, the value has the option's type (as `--set` checks it).
    auto numeric = [](const std::string& t) {
      return !t.empty() && std::all_of(t.begin(), t.end(),
                                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    };
    auto boolean = [](const std::string& t) { return t == "true" || t == "false"; };
    if (o->choices.empty() && boolean(o->value) && !boolean(value.text)) {
      d_.error(value.loc, "`when`: option `" + o->name + "` takes true or false, not `" + value.text + "`");
      return false;
    }
    if (o->choices.empty() && numeric(o->value) && !numeric(value.text)) {
      d_.error(value.loc, "`when`: option `" + o->name + "` takes a number, not `" + value.text + "`");
      return false;
    }
    m_.when_tests.push_back(WhenTest{o->name, value.text, negate});
    return (o->value == value.text) != negate;
  }

  // The statements of a block with its `when` blocks read in place (or dropped).
  std::vector<Stmt> body(const std::vector<Stmt>& block) {
    std::vector<Stmt> out;
    for (const Stmt& c : block) {
      if (c.keyword != "when") {
        out.push_back(c);
      } else if (when_holds(c)) {
        for (Stmt& d : body(c.block)) out.push_back(std::move(d));
      }
    }
    return out;
  }
  std::vector<Stmt> body(const Stmt& s) { return body(s.block); }

  void when(const Stmt& s, bool is_root) {
    if (!when_holds(s)) return;
    for (const Stmt& c : s.block) {
      if (c.keyword == "ruleset" || c.keyword == "option") {
        d_.error(c.loc, "`" + c.keyword + "` cannot stand in a `when` block", "state it outside the block");
        continue;
      }
      statement(c, is_root);
    }
  }

  void board(const Stmt& s) {
    no_block(s);
    m_.board_loc = s.loc;
    if (s.args.size() == 1 && s.args[0].is("unbounded")) {
      m_.unbounded = true;
      use(ConstructId::BoardUnbounded, s.loc);
      return;
    }
    use(ConstructId::BoardRect, s.loc);
    if (s.args.size() == 3 && s.args[1].is("x")) {
      auto w = number(s.args[0], "a width", 1, 26), h = number(s.args[2], "a height", 1, 99);
      if (w && h) {
        m_.width = *w;
        m_.height = *h;
        m_.unbounded = false;
      }
      return;
    }
    d_.error(s.loc, "`board` takes `WIDTH x HEIGHT` or `unbounded`", "e.g. `board 8 x 8`");
  }

  void option(const Stmt& s) {
    no_block(s);
    const char* form = "write it as `option NAME = DEFAULT [\"DOC\"] [one-of VALUE...]`";
    if (s.args.size() < 3 || !s.args[1].is("=")) {
      d_.error(s.loc, "`option` takes `NAME = DEFAULT [\"DOC\"] [one-of VALUE...]`", form);
      return;
    }
    OptionDef o{s.args[0].text, s.args[2].text, "", s.loc, {}};
    size_t i = 3;
    if (i < s.args.size() && s.args[i].kind == ValueKind::String) o.doc = s.args[i++].text;
    if (i < s.args.size() && s.args[i].is("one-of")) {
      for (++i; i < s.args.size(); ++i) o.choices.push_back(s.args[i].text);
      if (o.choices.empty())
        d_.error(s.args.back().loc, "`one-of` needs the values the option may take", form);
      if (!o.choices.empty() && std::find(o.choices.begin(), o.choices.end(), o.value) == o.choices.end())
        d_.error(s.args[2].loc, "the default `" + o.value + "` is not one of the option's values", form);
    } else if (i < s.args.size()) {
      d_.error(s.args[i].loc, "unexpected `" + s.args[i].text + "` in `option`", form);
    }
    auto it = overrides_.find(o.name);
    if (it != overrides_.end() && !o.choices.empty()) {
      if (std::find(o.choices.begin(), o.choices.end(), it->second) == o.choices.end()) {
        std::string list;
        for (const auto& c : o.choices) list += (list.empty() ? "" : ", ") + c;
        d_.error(s.args[2].loc, "--set " + o.name + "=" + it->second + ": this option takes one of " + list,
                 did_you_mean(it->second, o.choices));
      } else {
        o.value = it->second;
      }
      used_overrides.insert(o.name);
    } else if (it != overrides_.end()) {
      bool was_num = std::all_of(o.value.begin(), o.value.end(),
                                 [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
      bool is_num = !it->second.empty() && std::all_of(it->second.begin(), it->second.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      });
      bool was_bool = o.value == "true" || o.value == "false";
      if (was_num && !is_num) {
        d_.error(s.args[2].loc, "--set " + o.name + "=" + it->second + ": this option takes a number");
      } else if (was_bool && it->second != "true" && it->second != "false") {
        d_.error(s.args[2].loc, "--set " + o.name + "=" + it->second + ": this option takes true or false");
      } else {
        o.value = it->second;
      }
      used_overrides.insert(o.name);
    }
    for (auto& e : m_.options)
      if (e.name == o.name) {
        e = o;
        return;
      }
    m_.options.push_back(o);
  }

  void piece(const Stmt& s) {
    if (s.args.size() < 2) {
      d_.error(s.loc, "`piece` takes a name and a letter", "e.g. `piece knight N { betza \"N\" }`");
      return;
    }
    PieceDef p;
    p.name = s.args[0].text;
    p.loc = s.loc;
    if (!piece_letter(s.args[1], p.letter)) return;
    for (size_t i = 2; i < s.args.size(); ++i) {
      if (s.args[i].is("royal"))
        p.royal = true;
      else
        d_.error(s.args[i].loc, "unexpected `" + s.args[i].text + "` after the piece letter",
                 "put it in the piece's block");
    }
    use(ConstructId::Piece, s.loc);
    if (p.royal) p.constructs.push_back(ConstructUse{ConstructId::Royal, s.args[1].loc, {}, group_});
    piece_ = &p;
    for (const Stmt& c : body(s)) dispatch(Scope::Piece, c);
    piece_ = nullptr;
    // `immobile` with moves is the compiler's error (flip_compile.cpp).
    if (p.betza.empty() && !p.find(ConstructId::Teleport) && !p.find(ConstructId::Strike) &&
        !p.find(ConstructId::Immobile))
      d_.error(s.loc, "piece `" + p.name + "` has no moves",
               "add `betza \"...\"`, or `immobile` for a piece only placed");
    for (auto& e : m_.pieces)
      if (e.name == p.name || e.letter == p.letter) {
        if (e.name != p.name)
          d_.error(s.args[1].loc, std::string("letter `") + p.letter + "` is already piece `" + e.name + "`");
        e = p;
        return;
      }
    m_.pieces.push_back(p);
  }
// clang-format on
