// hexwar: the replay page (a step slider, a turn menu, the log) and the record upload.
"use strict";
(function () {
  const upload = document.getElementById("open");
  if (upload) {
    upload.onclick = async () => {
      const file = document.getElementById("recordfile").files[0];
      const m = document.getElementById("message");
      if (!file) { m.textContent = "choose a record file first"; return; }
      const r = await fetch("/api/replay", { method: "POST", body: await file.text() });
      const data = await r.json();
      if (!r.ok) { m.textContent = r.status + " " + data.error; m.className = "refused"; return; }
      location.href = "/r/" + data.replay;
    };
    return;
  }
  const app = document.getElementById("replayapp");
  const config = JSON.parse(app.dataset.config);
  const slider = document.getElementById("step");
  const turn = document.getElementById("turn");
  let shown = -1;
  let turnsFilled = false;

  async function show(step) {
    const r = await fetch("/api/r/" + config.replay + "?step=" + step);
    const v = await r.json();
    if (!r.ok) { document.getElementById("status").textContent = v.error; return; }
    shown = v.step;
    slider.max = String(v.steps);
    slider.value = String(v.step);
    if (!turnsFilled) {
      for (const [t, first] of v.turns) {
        const o = document.createElement("option");
        o.value = String(first);
        o.textContent = "turn " + t;
        turn.appendChild(o);
      }
      turnsFilled = true;
    }
    const parts = ["turn " + v.turn];
    if (v.stage) parts.push("stage " + v.stage);
    if (v.phase) parts.push("phase " + v.phase);
    parts.push(v.to_act === "*terminal*" ? "game over" : "to act: " + v.to_act);
    if (v.outcome) parts.push("result: " + (v.outcome[0] || "draw") + " — " + v.outcome[1]);
    document.getElementById("status").textContent = parts.join(" · ");
    document.getElementById("stepno").textContent = "action " + v.step + " of " + v.steps;
    document.getElementById("board").innerHTML = v.board || "<p>(no board)</p>";
    const log = document.getElementById("log");
    log.innerHTML = "";
    for (const [n, entry] of v.log) {
      const li = document.createElement("li");
      li.value = n + 1;
      li.textContent = entry;
      log.appendChild(li);
    }
    log.scrollTop = log.scrollHeight;
    document.body.dataset.step = String(v.step);
  }

  slider.addEventListener("change", () => show(Number(slider.value)));
  turn.addEventListener("change", () => show(Number(turn.value)));
  document.getElementById("first").onclick = () => show(0);
  document.getElementById("prev").onclick = () => show(Math.max(0, shown - 1));
  document.getElementById("next").onclick = () => show(shown + 1);
  document.getElementById("last").onclick = () => show(Number(slider.max) || 999999999);
  show(999999999);
})();
