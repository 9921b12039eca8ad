#include "world/scene/finish.h"

#include <algorithm>
#include <cmath>

namespace world {

FinishSpec finishSpec(Finish finish, float specular) {
  switch (finish) {
    case Finish::Plain:
      // The old specular knob as a gloss: 0 none at all, 1 a fairly sharp highlight.
      return {specular <= 0.0f ? 0.0f : 1.0f - 0.6f * std::clamp(specular, 0.0f, 1.0f), 0.0f,
              false};
    case Finish::AnodisedBlack:
      return {0.55f, 0.0f, false};
    case Finish::SheetSteel:
      return {0.5f, 0.5f, false};
    case Finish::BrushedAluminium:
      return {0.4f, 1.0f, false};
    case Finish::Copper:
      return {0.35f, 1.0f, false};
    case Finish::Nickel:
      return {0.45f, 1.0f, false};
    case Finish::Silicon:
      return {0.35f, 0.25f, true};
    case Finish::Pcb:
      return {0.65f, 0.0f, false};
    case Finish::Concrete:
      return {0.85f, 0.0f, false};
    case Finish::InsulatedPipe:
      return {0.55f, 0.75f, false};
    case Finish::Rubber:
      return {0.5f, 0.0f, false};
  }
  return {1.0f, 0.0f, false};
}

float packSurface(const FinishSpec& spec) {
  if (spec.roughness <= 0.0f) return 0.0f;
  const float quarters = std::round(std::clamp(spec.metalness, 0.0f, 1.0f) * 4.0f);
  return quarters + (spec.thinFilm ? 8.0f : 0.0f) + std::clamp(spec.roughness, 0.02f, 0.99f);
}

}  // namespace world
