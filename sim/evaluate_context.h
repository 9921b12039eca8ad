// Internal to the evaluation (sim/evaluate*.cpp): the scenario resolved against the catalog, the
// output writer, and the calculator inputs built from them. Not part of sim/'s public API.
#pragma once

#include <string>

#include "sim/calc/collectives.h"
#include "sim/calc/serving.h"
#include "sim/calc/training.h"
#include "sim/calc/transformer.h"
#include "sim/domain.h"
#include "sim/engine/figures.h"
#include "sim/evaluate.h"
#include "sim/specs.h"
#include "sim/workload_inputs.h"

namespace sim::detail {

// Everything the sections need, resolved from the scenario and the catalog.
struct Context {
  const ScenarioDesc& scenario;
  const Catalog& catalog;
  SystemSpec system;
  GpuSpec gpu;  // the catalog's, with the scenario's accelerator figures on top
  InterconnectSpec nic;
  SwitchSpec fabricSwitch;
  ModelSpec model;  // catalog, inline dimensions or config.json
  calc::TransformerShape shape;
  FacilitySpec facility;
  CostSpec cost;
  HardwareInputs hw;  // gpu, domain, egress, rules (with the scenario's overrides), collectives
  engine::EngineFigures figures;
  Precision weights = Precision::BF16;
  Precision kv = Precision::BF16;
  Precision compute = Precision::BF16;
  double params = 0;
  double activeParams = 0;
  double systems = 0;
  double racks = 0;
};

// Appends outputs, checking every number against its unit's domain (sim/domain.h): the first
// one outside it is kept as the evaluation's defect.
class Writer {
 public:
  explicit Writer(Evaluation& out) : m_out(out) {}
  void section(std::string name) { m_section = std::move(name); }
  void num(const std::string& key, double value, const std::string& unit) {
    if (m_defect.empty()) {
      if (std::string why = outputError(unit, value); !why.empty()) {
        m_defect = m_section + "." + key + " " + why;
      }
    }
    m_out.outputs.push_back({m_section, key, value, unit});
  }
  /// "section.key what is wrong" of the first output outside its domain; "" when none.
  const std::string& defect() const { return m_defect; }
  void flag(const std::string& key, bool value) {
    m_out.outputs.push_back({m_section, key, value, ""});
  }
  void text(const std::string& key, const std::string& value) {
    m_out.outputs.push_back({m_section, key, value, ""});
  }

 private:
  Evaluation& m_out;
  std::string m_section;
  std::string m_defect;
};

/// Node egress: NICs x NIC rate of one system (bytes/s, one direction).
double nodeEgress_Bps(const Context& c);
/// The serving model's inputs for one replica of the scenario on `gpu`.
calc::ServingDesc servingDesc(const Context& c, const GpuSpec& gpu);
/// The serving result of the scenario on `gpu` (its batching, concurrency or request rate).
calc::ServingResult serve(const Context& c, const GpuSpec& gpu);
/// The training model's inputs for the scenario's layout.
calc::TrainingDesc trainingDesc(const Context& c);
/// Training tokens: the scenario's or the model's catalogued ones.
double trainingTokens(const Context& c);
/// Wall time of the training run with step `s`: its steps (at least one) x the step time /
/// the effective-training-time share.
double trainingTime_s(const Context& c, const calc::TrainingStep& s);
/// GPUs of one model replica: tp x cp x pp.
double replicaGpus(const Context& c);

/// "" when the scenario's collective can run as asked, else the message naming the field.
std::string checkCollective(const Context& c);
/// "" when the workload is one the model can price as asked (a layout that fits the cluster in
/// 64-bit arithmetic, divides the model, no two fields that contradict each other), else the
/// message naming the field (sim/evaluate_checks.cpp).
std::string checkWorkload(const Context& c);
/// The GPU's figures after the scenario's accelerator overrides: TDP >= idle power, usable HBM
/// within its capacity, a peak for the compute format, peaks ordered by precision (FP4 >= FP8 >=
/// BF16 where present); "" or the refusal naming the field
/// (accelerator.* when the scenario set it, else the catalog's gpus.ID.*).
std::string checkAccelerator(const Context& c);
/// The cluster's parts and their count: a scale-out switch and a NIC in the fabric's slots,
/// systems per rack that fit the facility's rack (a rack-scale system alone in its rack); "" or
/// the refusal naming the cluster field and the catalog's.
std::string checkCluster(const Context& c);

void hardware(const Context& c, Writer& w);
void fabric(const Context& c, Writer& w);
void memory(const Context& c, Writer& w);
void compute(const Context& c, Writer& w);
void parallelism(const Context& c, Writer& w);
void collective(const Context& c, Writer& w);
void collectiveSweep(const Context& c, Writer& w);
void power(const Context& c, Writer& w);
void cost(const Context& c, Writer& w);
void comparison(const Context& c, Writer& w);

}  // namespace sim::detail
