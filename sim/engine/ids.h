// Stable ids of the engine's entities. The world maps them to geometry; the engine indexes its
// per-entity arrays with them. An id is an index into the Cluster's arrays, never a pointer.
#pragma once

#include <cstdint>

namespace sim::engine {

struct GpuId {
  uint32_t index;
};
struct RackId {
  uint32_t index;
};
struct LinkId {
  uint32_t index;
};
struct SwitchId {
  uint32_t index;
};
struct CduId {
  uint32_t index;
};
struct ReplicaId {
  uint32_t index;
};

inline constexpr uint32_t INVALID_INDEX = 0xffffffffu;

}  // namespace sim::engine
