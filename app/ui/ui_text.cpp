#include "app/ui/ui_text.h"

#include <cstdio>
#include <vector>

namespace app {
namespace {

struct Entry {
  const char* key;
  const char* en;
  const char* de;
};

// Keys by where they show. "{}" is a value filled in (withValue).
constexpr Entry TABLE[] = {
    // Timeline and time controls.
    {"time.play", "Play (P)", "Weiter (P)"},
    {"time.pause", "Pause (P)", "Pause (P)"},
    {"time.step", "Step (N)", "Schritt (N)"},
    {"time.slower", "Slower ([)", "Langsamer ([)"},
    {"time.faster", "Faster (])", "Schneller (])"},
    {"time.paused", "paused", "angehalten"},
    {"time.scrub", "go to", "springe zu"},
    {"time.step_routed", "Training step as routed now: {}",
     "Trainingsschritt, wie jetzt geroutet: {}"},
    {"time.last", "last {}", "zuletzt {}"},
    {"time.fault_free", "fault-free {}", "fehlerfrei {}"},
    {"time.held", "held: {} so far", "aufgehalten: bisher {}"},
    {"time.pipeline", "pipeline:", "Pipeline:"},
    {"time.inference", "Inference service: requests arrive and decode continuously.",
     "Inferenzdienst: Anfragen kommen laufend an und werden dekodiert."},
    {"time.catching_up", "Catching up to t = {}", "Hole auf bis t = {}"},
    {"segment.pipeline", "pipeline", "Pipeline"},
    {"segment.DP all-reduce", "DP all-reduce", "DP-AllReduce"},
    {"segment.optimizer", "optimizer", "Optimierer"},
    {"segment.compute", "compute", "Rechnen"},
    {"segment.bubble", "bubble", "Blase"},
    {"segment.exposed communication", "exposed communication", "offene Kommunikation"},
    {"segment.memcpy", "memcpy", "Kopieren"},
    {"segment.idle", "idle", "Leerlauf"},
    {"segment.GEMM", "GEMM", "GEMM"},
    {"segment.attention", "attention", "Attention"},
    {"segment.other kernels", "other kernels", "andere Kernel"},
    {"time.measured_step", "Measured ProfilerStep#{}", "Gemessener ProfilerStep#{}"},
    {"time.measured_trace", "Measured, whole trace", "Gemessen, ganze Spur"},
    {"time.rank", "rank {}", "Rang {}"},
    {"time.kernels", "kernels:", "Kernel:"},
    {"compare.title", "Measured / modelled:", "Gemessen / modelliert:"},
    {"compare.gap", "Largest gap: {}", "Größte Abweichung: {}"},
    {"compare.measured", "{} measured", "{} gemessen"},
    {"compare.modelled", "{} modelled", "{} modelliert"},
    // HUD.
    {"hud.free_flight", "Free flight: Home or Backspace returns to the tour",
     "Freier Flug: Pos1 oder Rücktaste führt zurück zur Tour"},
    {"hud.you_are_in", "you are in: {}", "Sie sind in: {}"},
    {"hud.selected", "selected: {}", "ausgewählt: {}"},
    {"hud.fps", "{} fps", "{} fps"},
    {"hud.help_hint", "H keys", "H Tasten"},
    {"hud.step", "step {}", "Schritt {}"},
    {"hud.tour_step", "Step {} · Space: next   ←: back   G: play by itself",
     "Schritt {} · Leertaste: weiter   ←: zurück   G: von selbst abspielen"},
    {"hud.tour_playing", "Step {} · playing by itself   G: stop",
     "Schritt {} · spielt von selbst   G: anhalten"},
    {"hud.fault_free_step", "fault-free step {}", "fehlerfreier Schritt {}"},
    {"hud.tokens", "{} tokens/s", "{} Tokens/s"},
    {"hud.tokens_out_of_memory", "0 tokens/s: out of memory", "0 Tokens/s: Speicher voll"},
    {"hud.quit_confirm", "Press Esc again to quit", "Zum Beenden noch einmal Esc drücken"},
    {"hud.details_hint", "V: all figures", "V: alle Zahlen"},
    {"hud.details_hide", "V: fewer figures", "V: weniger Zahlen"},
    // Key help.
    {"help.keys",
     "Space/PageDown next   PageUp back   1-9 0 chapters   G play   Home back to the tour\n"
     "WASD fly   Q/E down/up   Shift fast   right-drag look   wheel closer/farther\n"
     "+/- one scale in/out   B back out   F frame the selection   click select\n"
     "O heat overlay   X traffic   V panel figures   T timeline   I what-if\n"
     "P pause   [ ] speed   N step   L language   R reduced motion   M chapters\n"
     "F12 screenshot   F9 record   H hide keys   Esc clear / quit",
     "Leertaste/BildAb weiter   BildAuf zurück   1-9 0 Kapitel   G abspielen   Pos1 zur Tour\n"
     "WASD fliegen   Q/E ab/auf   Umschalt schnell   Rechtsziehen schauen   Rad näher/ferner\n"
     "+/- eine Größenstufe   B zurückweichen   F Auswahl einrahmen   Klick auswählen\n"
     "O Wärmebild   X Verkehr   V Panelzahlen   T Zeitleiste   I Was-wäre-wenn\n"
     "P Pause   [ ] Tempo   N Schritt   L Sprache   R weniger Bewegung   M Kapitel\n"
     "F12 Bildschirmfoto   F9 Aufnahme   H Tasten aus   Esc abwählen / beenden"},
    // Chapter menu.
    {"menu.chapters", "Chapters", "Kapitel"},
    // Panels.
    {"panel.reset", "Reset", "Zurücksetzen"},
    {"panel.basis", "basis: {}", "Grundlage: {}"},
    {"panel.source", "source: {}", "Quelle: {}"},
    {"panel.roofline", "roofline: FLOP/s against FLOP per byte (log-log)",
     "Roofline: FLOP/s gegen FLOP pro Byte (log-log)"},
    {"panel.ridge", "ridge {}", "Knick {}"},
    {"panel.memory_bound", "memory-bound", "speichergebunden"},
    {"panel.compute_bound", "compute-bound", "rechengebunden"},
    {"panel.yes", "yes", "ja"},
    {"panel.no", "no", "nein"},
    // Selection.
    {"selection.mirrored", "beyond the modelled fabric: shows the modelled racks' average",
     "außerhalb des modellierten Netzes: zeigt den Mittelwert der modellierten Racks"},
    {"selection.catalog", "catalog (point at a figure for its source)",
     "Katalog (auf eine Zahl zeigen für ihre Quelle)"},
    {"selection.tensor busy", "tensor cores busy", "Tensorkerne ausgelastet"},
    {"selection.mean tensor busy", "tensor cores busy (mean)", "Tensorkerne ausgelastet (Mittel)"},
    {"selection.power", "power", "Leistung"},
    {"selection.junction", "junction", "Sperrschicht"},
    {"selection.hottest junction", "hottest junction", "heißeste Sperrschicht"},
    {"selection.HBM traffic", "HBM traffic", "HBM-Verkehr"},
    {"selection.NIC link load", "network link load", "Netzlast"},
    {"selection.busiest NIC link", "busiest network link", "höchste Netzlast"},
    {"selection.busiest port", "busiest port", "höchstbelasteter Port"},
    {"selection.mean port load", "port load (mean)", "Portlast (Mittel)"},
    {"selection.ports in use", "ports in use", "belegte Ports"},
    {"selection.PFC paused", "PFC paused", "durch PFC pausiert"},
    {"selection.clear", "Esc or a click on empty space clears the selection",
     "Esc oder ein Klick ins Leere hebt die Auswahl auf"},
    // What-if.
    {"whatif.title", "What-if and faults", "Was wäre wenn, und Fehler"},
    {"whatif.scenario", "scenario", "Szenario"},
    {"whatif.system", "system", "System"},
    {"whatif.rebuilding", "rebuilding the world for {}…", "die Welt wird für {} neu gebaut…"},
    {"whatif.fields", "workload and fabric", "Last und Netz"},
    {"whatif.apply", "Apply (restart at t = 0)", "Übernehmen (Neustart bei t = 0)"},
    {"whatif.reset", "Reset fields", "Felder zurücksetzen"},
    {"whatif.faults", "faults", "Fehler"},
    {"whatif.kind", "kind", "Art"},
    {"whatif.target", "target id", "Ziel-Nr."},
    {"whatif.severity", "severity (0 = catalog)", "Stärke (0 = Katalog)"},
    {"whatif.inject", "Inject at t = {}", "Einspeisen bei t = {}"},
    {"whatif.clear", "clear now", "jetzt beheben"},
    {"whatif.own", "{} (the scenario's own)", "{} (gehört zum Szenario)"},
    {"whatif.kind.link_down", "link down", "Verbindung getrennt"},
    {"whatif.kind.pfc_storm", "PFC pause storm", "PFC-Pausensturm"},
    {"whatif.kind.pump_trip", "pump trip", "Pumpenausfall"},
    {"whatif.kind.straggler", "slow GPU", "langsame GPU"},
    {"whatif.applied", "Restarted with the new fields", "Mit den neuen Feldern neu gestartet"},
    {"whatif.cleared", "Cleared at t = {}", "Behoben bei t = {}"},
    {"whatif.target_negative", "target id must be >= 0", "Ziel-Nr. muss >= 0 sein"},
    {"whatif.compare", "Compare with the previous", "Vergleich mit dem vorigen"},
    {"whatif.compare.previous", "before: {}", "vorher: {}"},
    {"whatif.compare.now", "now: {}", "jetzt: {}"},
    {"whatif.compare.step", "step time", "Schrittzeit"},
    {"whatif.compare.tokens", "tokens/s", "Tokens/s"},
    {"whatif.compare.power", "facility power", "Anlagenleistung"},
    {"whatif.compare.cost", "cost", "Kosten"},
    {"whatif.compare.basis",
     "basis: the engine's simulation (modelled), before at t = {}, now at t = {}",
     "Grundlage: die Simulation (modelliert), vorher bei t = {}, jetzt bei t = {}"},

    // Legend.
    {"legend.title", "{} (derived)", "{} (abgeleitet)"},
    {"legend.gpus", "GPUs", "GPUs"},
    {"legend.racks", "racks", "Racks"},
    {"legend.power", "power", "Leistung"},
    {"legend.temperature", "GPU junction temperature", "GPU-Sperrschichttemperatur"},
    {"legend.utilisation", "tensor cores busy", "Tensorkerne ausgelastet"},
    {"legend.link_load", "network link load", "Netzlast"},
    {"legend.stage", "pipeline stage", "Pipeline-Stufe"},
    {"legend.none", "no overlay", "keine Einfärbung"},
    // Kiosk.
    {"kiosk.attract", "An AI datacenter at true scale, from one chip to the campus. Press any key.",
     "Ein KI-Rechenzentrum in echter Größe, vom Chip bis zum Campus. Eine Taste drücken."},
    {"kiosk.woken", "→ or Space: next   ← back   1–9, 0: chapters",
     "→ oder Leertaste: weiter   ← zurück   1–9, 0: Kapitel"},
    {"kiosk.still_there", "Still there? Press any key.  ({})",
     "Noch da? Eine Taste drücken.  ({})"},
    // Notices.
    {"notice.running", "Running {} from t = 0", "{} läuft ab t = 0"},
    {"notice.injected", "Injected: {}", "Eingespeist: {}"},
    {"race.cpu_lanes", "CPU  {} lanes", "CPU  {} Lanes"},
    {"race.gpu_lanes", "GPU  {} lanes", "GPU  {} Lanes"},
    {"race.cuda_cores", "CUDA cores  {} FLOP/clock", "CUDA-Kerne  {} FLOP/Takt"},
    {"race.tensor_cores", "tensor cores  {} FLOP/clock", "Tensor Cores  {} FLOP/Takt"},
    {"fault.link_down", "link down, link {}", "Verbindung getrennt, Link {}"},
    {"fault.pfc_storm", "PFC pause storm, switch {}", "PFC-Pausensturm, Switch {}"},
    {"fault.pfc_deadlock", "PFC deadlock, switch {}", "PFC-Verklemmung, Switch {}"},
    {"fault.pump_trip", "pump trip, CDU {}", "Pumpenausfall, CDU {}"},
    {"fault.straggler", "slow GPU, GPU {}", "langsame GPU, GPU {}"},
    {"fault.from", "from {}", "ab {}"},
    {"fault.until", "until {}", "bis {}"},
    {"notice.cleared", "{}: its own simulation, without ", "{}: eigene Simulation, ohne "},
    {"notice.more", "+{} more", "+{} weitere"},
    {"notice.your_scenario", "your scenario {}", "Ihr Szenario {}"},
    {"notice.your_fields", "your field changes", "Ihre geänderten Felder"},
    {"notice.traffic_on", "Traffic on (X)", "Verkehr an (X)"},
    {"notice.reduced_on", "Reduced motion on (R): cuts instead of flights",
     "Weniger Bewegung an (R): Schnitte statt Flügen"},
    {"notice.reduced_off", "Reduced motion off (R)", "Weniger Bewegung aus (R)"},
    {"hud.recording", "REC (F9 stops)", "AUFNAHME (F9 beendet)"},
    {"notice.traffic_off", "Traffic off (X)", "Verkehr aus (X)"},
    {"notice.recording", "Recording {}  (F9 stops)", "Aufnahme {}  (F9 beendet)"},
    {"notice.recording_frames", "Recording frames into {} (no ffmpeg for an MP4)  (F9 stops)",
     "Aufnahme als Einzelbilder in {} (kein ffmpeg für MP4)  (F9 beendet)"},
    {"notice.saved", "Saved {}", "Gespeichert: {}"},
    {"place.rack", "rack {}", "Rack {}"},
    {"place.hall", "hall {}", "Halle {}"},
    {"place.campus", "the campus", "dem Campus"},
};

}  // namespace

const char* uiText(std::string_view key, std::string_view language) {
  for (const Entry& e : TABLE) {
    if (key == e.key) return language == "de" ? e.de : e.en;
  }
  return key.data();
}

std::vector<std::string_view> uiTextKeys() {
  std::vector<std::string_view> keys;
  for (const Entry& e : TABLE) keys.emplace_back(e.key);
  return keys;
}

std::string secondsText(double t_s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f\u00a0s", t_s);
  return text;
}

std::string faultLabel(const sim::engine::FaultDesc& f, std::string_view language) {
  using sim::engine::FaultKind;
  const char* key = "fault.link_down";
  switch (f.kind) {
    case FaultKind::LinkDown:
      key = "fault.link_down";
      break;
    case FaultKind::PfcStorm:
      key = f.deadlock ? "fault.pfc_deadlock" : "fault.pfc_storm";
      break;
    case FaultKind::PumpTrip:
      key = "fault.pump_trip";
      break;
    case FaultKind::Straggler:
      key = "fault.straggler";
      break;
  }
  std::string out = withValue(uiText(key, language), std::to_string(f.target));
  out += ", " + withValue(uiText("fault.from", language), secondsText(f.start_s));
  if (f.end_s < sim::engine::NEVER_S)
    out += " " + withValue(uiText("fault.until", language), secondsText(f.end_s));
  return out;
}

std::string withValue(std::string_view format, std::string_view value) {
  std::string out(format);
  if (const size_t at = out.find("{}"); at != std::string::npos) out.replace(at, 2, value);
  return out;
}

}  // namespace app
