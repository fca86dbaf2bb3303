// hexwar: the play page. Plain JavaScript, no build step, nothing fetched from elsewhere.
// Every control is a legal token the server sent (from state.legal_tokens); the page
// never decides legality itself.
"use strict";
(function () {
  const app = document.getElementById("app");
  const config = JSON.parse(app.dataset.config);
  const token = new URLSearchParams(location.search).get("t");
  const seat = config.seat;
  const api = "/api/g/" + config.game + "/";
  let prefix = [];
  let tokens = [];
  let view = null;
  let preview = null;
  let busy = false;

  function headers() {
    const h = { "Content-Type": "application/json" };
    if (token) h["X-Hexwar-Token"] = token;
    return h;
  }

  async function call(path, body) {
    const r = await fetch(api + path, {
      method: body === undefined ? "GET" : "POST",
      headers: headers(),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await r.json();
    if (!r.ok) {
      const err = new Error(data.error || r.statusText);
      err.rule = data.rule;
      err.status = r.status;
      throw err;
    }
    return data;
  }

  function say(text, kind) {
    const m = document.getElementById("message");
    m.textContent = text;
    m.className = kind || "";
  }

  function refuse(err) {
    say((err.status ? err.status + " " : "") + err.message, "refused");
    if (err.rule) document.getElementById("message").dataset.rule = err.rule;
  }

  function text(el, value) { document.getElementById(el).textContent = value; }

  function showStatus(v) {
    const parts = ["turn " + v.turn];
    if (v.stage) parts.push("stage " + v.stage);
    if (v.phase) parts.push("phase " + v.phase);
    if (v.decision) parts.push(v.decision_text || "a decision");
    let who = v.to_act === "*terminal*" ? "game over" : "to act: " + v.to_act;
    if (v.your_turn) who += " (you)";
    parts.push(who);
    if (v.outcome) parts.push("result: " + (v.outcome[0] || "draw") + " — " + v.outcome[1]);
    if (v.undo_asked.length) parts.push("undo asked by " + v.undo_asked.join(", "));
    text("status", parts.join(" · "));
    document.getElementById("status").dataset.yourTurn = v.your_turn ? "1" : "0";
    document.getElementById("status").dataset.over = v.outcome ? "1" : "0";
  }

  function showLog(v) {
    const log = document.getElementById("log");
    log.innerHTML = "";
    for (const [n, entry] of v.log) {
      const li = document.createElement("li");
      li.value = n + 1;
      const result = (v.results || {})[String(n)];
      li.textContent = result ? entry + " → " + result : entry;
      if (v.chance.includes(n)) li.className = "chance";
      log.appendChild(li);
    }
    log.scrollTop = log.scrollHeight;
    const lines = [];
    for (const [table, entries] of Object.entries(v.secrets)) {
      for (const [key, value] of Object.entries(entries)) {
        lines.push(table + " / " + key + ": " + JSON.stringify(value));
      }
    }
    text("secrets", lines.length ? lines.join("\n") : "(nothing hidden from the others)");
  }

  function highlight() {
    const board = document.getElementById("board");
    for (const el of board.querySelectorAll(".legal, .legal-unit, .chosen")) {
      el.classList.remove("legal", "legal-unit", "chosen");
    }
    if (!view) return;
    const wanted = new Set(tokens);
    const chosen = new Set(prefix);
    for (const el of board.querySelectorAll("polygon.cell[data-label]")) {
      const label = el.dataset.label;
      if (wanted.has(label)) el.classList.add("legal");
      if (chosen.has(label)) el.classList.add("chosen");
      const units = view.units[label] || [];
      if (units.some((u) => wanted.has(u))) el.classList.add("legal-unit");
      if (units.some((u) => chosen.has(u))) el.classList.add("chosen");
    }
  }

  function showControls() {
    const pre = document.getElementById("prefix");
    const buttons = document.getElementById("buttons");
    pre.innerHTML = "";
    buttons.innerHTML = "";
    text("preview", prefix.length && preview ? preview : "");
    if (!view || !view.your_turn) {
      pre.textContent = view && view.outcome ? "" : "waiting for " + (view ? view.to_act : "…");
      highlight();
      return;
    }
    const chosen = document.createElement("span");
    chosen.id = "chosen";
    chosen.textContent = prefix.length ? prefix.join(" ") : "choose an action:";
    pre.appendChild(chosen);
    if (prefix.length) {
      const clear = document.createElement("button");
      clear.textContent = "✕ clear";
      clear.className = "clear";
      clear.onclick = () => { prefix = []; tokens = view.tokens; showControls(); };
      pre.appendChild(clear);
    }
    const shownPrefix = prefix.slice();
    for (const t of tokens) {
      const b = document.createElement("button");
      b.className = t === "done" ? "token done" : "token";
      b.dataset.token = t;
      b.textContent = t === "done" ? "✓ do it: " + prefix.join(" ") : t;
      const title = (view.titles || {})[t];
      if (title) { b.title = title; b.textContent += " · " + title.split(": ")[0]; }
      b.onclick = () => chooseToken(shownPrefix, t);
      buttons.appendChild(b);
    }
    highlight();
  }

  async function chooseToken(before, t) {
    if (t === "done") return act(before);
    try {
      const r = await call("tokens", { seat: seat, prefix: before.concat([t]) });
      prefix = r.prefix;
      tokens = r.tokens;
      preview = r.preview;
      view.titles = Object.assign(view.titles || {}, r.titles);
      say("");
      if (tokens.length === 1 && tokens[0] === "done" && !preview) return act(prefix);
      showControls();
    } catch (err) { refuse(err); }
  }

  async function act(chosen) {
    busy = true;
    try {
      const r = await call("act", { seat: seat, tokens: chosen });
      say("applied: " + r.applied, "applied");
      prefix = [];
      if (!socket || socket.readyState !== 1) await refresh(true);
    } catch (err) {
      refuse(err);
    } finally { busy = false; }
  }

  async function onBoardClick(ev) {
    if (!view || !view.your_turn || !seat) return;
    const el = ev.target.closest("[data-label]");
    if (!el) return;
    const label = el.dataset.label;
    try {
      const r = await call("click", { seat: seat, prefix: prefix, label: label });
      prefix = r.prefix;
      tokens = r.tokens;
      preview = r.preview;
      view.titles = Object.assign(view.titles || {}, r.titles);
      say("");
      // only `done` left: apply at once, unless there is something to confirm (the odds)
      if (tokens.length === 1 && tokens[0] === "done" && !preview) return act(prefix);
      showControls();
      if (preview) say("check the odds below, then ✓ do it", "confirm");
    } catch (err) { refuse(err); }
  }

  function show(v) {
    const moved = !view || v.version !== view.version;
    // the board comes as drawn for the latest position ready (board_version); the
    // current one follows in a push
    const redraw = moved || v.board_version !== view.board_version;
    view = v;
    showStatus(v);
    showLog(v);
    if (redraw) {
      const board = document.getElementById("board");
      board.innerHTML = v.board || (v.board_version === null
        ? "<p>(drawing the board…)</p>" : "<p>(this game draws no board: use the buttons)</p>");
      board.dataset.version = String(v.board_version);
      if (zoom === null) fitZoom(board);
    }
    if (moved) {
      showDice(v);
      prefix = [];
      preview = null;
      tokens = v.tokens;
      showControls();
    } else {
      // the same position (a board drawn, an undo asked): the buttons stay as they are —
      // rebuilding them could swallow a click under way — and the new board is lit
      highlight();
    }
    document.body.dataset.version = String(v.version);
  }

  // the dice: the chance events since the position this page showed before
  let diceSeen = null;
  function showDice(v) {
    const box = document.getElementById("dice");
    const rolled = new Set(v.chance);
    // hidden draws (a shuffled deck) are not in the log: not dice
    const fresh = v.log.filter(([n]) => rolled.has(n) && (diceSeen === null || n >= diceSeen));
    diceSeen = v.version;
    if (!fresh.length) return;
    const byN = new Map(v.log);
    const lines = fresh.slice(-6).map(([n, entry]) => {
      const cause = byN.get(n - 1);
      const result = (v.results || {})[String(n)];
      return "⚄ " + entry + (result ? " → " + result : "")
        + (cause && !rolled.has(n - 1) ? "  ← " + cause : "");
    });
    box.textContent = lines.join("\n");
    box.dataset.count = String(fresh.length);
  }

  async function refresh(force) {
    const q = new URLSearchParams();
    if (seat) q.set("seat", seat);
    if (!force && view) q.set("since", String(view.version));
    let v;
    try { v = await call("view?" + q.toString()); } catch (err) { refuse(err); return; }
    if (v.unchanged) return;
    show(v);
  }

  // live updates: a WebSocket pushes the page's data after every change; polling only
  // while it is down
  let socket = null;
  let polling = null;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/g/" + config.game);
    socket.onopen = () => {
      socket.send(JSON.stringify(seat ? { seat: seat, token: token } : {}));
      if (polling) { clearInterval(polling); polling = null; }
      document.body.dataset.live = "1";
    };
    socket.onmessage = (ev) => {
      const v = JSON.parse(ev.data);
      if (v.error) { say(v.error, "refused"); return; }
      document.body.dataset.pushes = String(Number(document.body.dataset.pushes || 0) + 1);
      show(v);
    };
    socket.onclose = () => {
      document.body.dataset.live = "0";
      if (!polling) polling = setInterval(() => { if (!busy) refresh(false); }, 2000);
      setTimeout(connect, 3000);
    };
  }

  document.getElementById("board").addEventListener("click", onBoardClick);
  document.getElementById("undo").addEventListener("click", async () => {
    try {
      const r = await call("undo", { seat: seat });
      say(r.undone ? "taken back: " + r.undone + " actions" : "undo asked; waiting for "
        + "every human seat (asked: " + r.asked.join(", ") + ")", "applied");
    } catch (err) { refuse(err); }
  });
  // the search player's advice for the seat to act: its top candidates, thought in a
  // bot worker on the server (POST hint); shown, never played
  const hintButton = document.getElementById("hint");
  if (!seat) hintButton.hidden = true;
  hintButton.addEventListener("click", async () => {
    const box = document.getElementById("hintbox");
    hintButton.disabled = true;
    box.textContent = "thinking…";
    try {
      const r = await call("hint", { seat: seat });
      box.textContent = "";
      const head = document.createElement("p");
      head.textContent = "search (" + r.iterations + " iterations) suggests: " + r.chosen;
      box.appendChild(head);
      const table = document.createElement("table");
      table.className = "hint";
      const top = table.insertRow();
      for (const h of ["action", "visits", "win chance"]) {
        const th = document.createElement("th");
        th.textContent = h;
        top.appendChild(th);
      }
      for (const c of r.candidates) {
        const row = table.insertRow();
        if (c.action === r.chosen) row.className = "chosen";
        row.insertCell().textContent = c.action;
        row.insertCell().textContent = String(c.visits);
        row.insertCell().textContent = Math.round(c.win_chance * 100) + " %";
      }
      box.appendChild(table);
      if (!r.candidates.some((c) => c.action === r.chosen)) {
        // the search chose along its most visited tokens and completed the action past
        // the end of its tree: no complete action of it is among the candidates
        const note = document.createElement("p");
        note.className = "hintnote";
        note.textContent = r.chosen + ": its first tokens were searched most; "
          + "the action as a whole was not searched to its end";
        box.appendChild(note);
      }
    } catch (err) {
      box.textContent = "";
      refuse(err);
    } finally {
      hintButton.disabled = false;
    }
  });
  document.getElementById("replay").addEventListener("click", async () => {
    try {
      const r = await call("replay", {});
      location.href = "/r/" + r.replay;
    } catch (err) { refuse(err); }
  });
  for (const [id, k] of [["zoomin", 1.25], ["zoomout", 0.8]]) {
    document.getElementById(id).addEventListener("click", () => {
      zoom = Math.max(0.3, Math.min(4, (zoom || 1) * k));
      document.getElementById("board").style.setProperty("--zoom", String(zoom));
      localStorage.setItem("hexwar-zoom", String(zoom));
    });
  }
  // the size the player chose last, else: a small map and its legend fit the box; a
  // large map (hundreds of hexes) is drawn larger, so that its counters can be read
  let zoom = Number(localStorage.getItem("hexwar-zoom")) || null;
  if (zoom) document.getElementById("board").style.setProperty("--zoom", String(zoom));
  function fitZoom(board) {
    const svg = board.querySelector("svg");
    if (!svg || !svg.viewBox.baseVal || !svg.viewBox.baseVal.width) return;
    const box = svg.viewBox.baseVal;
    const cells = svg.querySelectorAll("polygon.cell").length;
    const tall = (board.clientWidth * box.height) / box.width;
    const room = window.innerHeight * 0.86;
    zoom = cells > 300 ? 2 : Math.min(1, room / tall);
    board.style.setProperty("--zoom", String(zoom));
  }
  refresh(true);
  connect();
})();
