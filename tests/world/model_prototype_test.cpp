// Imported models as world prototypes: winding kept right under mirroring and for double-sided
// materials, glTF materials as looks, images registered once; the asset override file (every
// refusal names the file, the line and the JSON pointer) and components replaced by models
// scaled to the component's real size.

#include <gtest/gtest.h>

#include <fstream>

#include <glm/gtc/matrix_transform.hpp>

#include "tests/common/paths.h"
#include "tests/world/world_test_fixture.h"
#include "world/builders/asset_overrides.h"
#include "world/builders/builders.h"
#include "world/builders/model_prototype.h"
#include "world/scene/procedural_textures.h"
#include "world/world.h"

namespace {

namespace fs = std::filesystem;

// One triangle in the z = 0 plane, wound counter-clockwise seen from +Z, normals +Z.
world::ImportedModel triangleModel() {
  world::ImportedModel model;
  model.source = "triangle.gltf";
  world::ImportedMesh mesh;
  mesh.data.name = "triangle";
  mesh.data.vertices = {{{0, 0, 0}, {0, 0, 1}, {0, 0}},
                        {{1, 0, 0}, {0, 0, 1}, {1, 0}},
                        {{0, 1, 0}, {0, 0, 1}, {0, 1}}};
  mesh.data.indices = {0, 1, 2};
  mesh.material = 0;
  model.meshes.push_back(mesh);
  model.materials.emplace_back();
  model.instances.emplace_back();  // identity
  return model;
}

glm::dvec3 vec(const float* p) {
  return {p[0], p[1], p[2]};
}

// For every triangle of `part`: the normal its winding gives after the part's transform, dotted
// with the vertex normal transformed as a normal (inverse transpose). Culling keeps the right
// side only when every product is positive.
std::vector<double> windingAgreement(const world::MeshLibrary& meshes, const world::Part& part) {
  const world::MeshData& mesh = meshes.mesh(part.mesh);
  const glm::dmat3 normalMatrix = glm::transpose(glm::inverse(glm::dmat3(part.local)));
  std::vector<double> out;
  for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    glm::dvec3 p[3];
    for (int k = 0; k < 3; ++k) {
      p[k] =
          glm::dvec3(part.local * glm::dvec4(vec(mesh.vertices[mesh.indices[t + k]].position), 1));
    }
    const glm::dvec3 winding = glm::cross(p[1] - p[0], p[2] - p[0]);
    const glm::dvec3 normal = normalMatrix * vec(mesh.vertices[mesh.indices[t]].normal);
    out.push_back(glm::dot(winding, normal));
  }
  return out;
}

struct Libraries {
  world::MeshLibrary meshes;
  world::TextureLibrary textures;
  world::Scene scene;
  world::ModelTargets targets() { return {meshes, textures, scene}; }
};

}  // namespace

TEST(ModelPrototype, MirroredInstanceGetsTheWindingFlipped) {
  world::ImportedModel model = triangleModel();
  world::ImportedInstance mirrored;
  mirrored.transform[0] = -1;  // scale x by -1
  model.instances.push_back(mirrored);
  Libraries lib;
  auto proto = world::modelPrototype(model, glm::dmat4(1.0), "t", lib.targets());
  ASSERT_TRUE(proto.ok()) << proto.error();
  ASSERT_EQ(proto->parts.size(), 2u);
  EXPECT_NE(proto->parts[0].mesh, proto->parts[1].mesh);
  for (const world::Part& part : proto->parts) {
    for (double agreement : windingAgreement(lib.meshes, part)) EXPECT_GT(agreement, 0);
  }
}

TEST(ModelPrototype, MirroringPlacementFlipsEveryPart) {
  // A placement that mirrors (as an override fitted into a mirrored frame would) counts too.
  Libraries lib;
  auto proto = world::modelPrototype(triangleModel(), glm::scale(glm::dmat4(1.0), {1, 1, -2}), "t",
                                     lib.targets());
  ASSERT_TRUE(proto.ok());
  for (double agreement : windingAgreement(lib.meshes, proto->parts[0])) EXPECT_GT(agreement, 0);
}

TEST(ModelPrototype, DoubleSidedMaterialDrawsBothWindings) {
  world::ImportedModel model = triangleModel();
  model.materials[0].doubleSided = true;
  Libraries lib;
  auto proto = world::modelPrototype(model, glm::dmat4(1.0), "t", lib.targets());
  ASSERT_TRUE(proto.ok());
  const world::MeshData& mesh = lib.meshes.mesh(proto->parts[0].mesh);
  ASSERT_EQ(mesh.triangleCount(), 2u);
  EXPECT_EQ(mesh.indices, (std::vector<uint32_t>{0, 1, 2, 0, 2, 1}));
}

TEST(ModelPrototype, MaterialsBecomeLooksAndImagesAreAddedOnce) {
  world::ImportedModel model = triangleModel();
  world::ImportedImage image;
  image.width = image.height = 2;
  image.rgba8.assign(16, 200);
  model.images.push_back(image);
  world::ImportedMaterial& mask = model.materials[0];
  mask.baseColorFactor[0] = 0.25f;
  mask.baseColorFactor[3] = 0.5f;
  mask.baseColorImage = 0;
  mask.alphaMode = world::AlphaMode::Mask;
  mask.alphaCutoff = 0.3f;
  world::ImportedMaterial blend;
  blend.baseColorImage = 0;
  blend.alphaMode = world::AlphaMode::Blend;
  model.materials.push_back(blend);
  model.meshes.push_back(model.meshes[0]);
  model.meshes[1].material = 1;
  world::ImportedInstance second;
  second.mesh = 1;
  model.instances.push_back(second);

  Libraries lib;
  auto proto = world::modelPrototype(model, glm::dmat4(1.0), "t", lib.targets());
  ASSERT_TRUE(proto.ok());
  ASSERT_EQ(proto->parts.size(), 2u);
  EXPECT_EQ(lib.textures.images().size(), 1u);  // one image, two materials
  const world::Look& a = proto->parts[0].look;
  const world::Look& b = proto->parts[1].look;
  EXPECT_FLOAT_EQ(a.r, 0.25f);
  EXPECT_FLOAT_EQ(a.alpha, 0.5f);
  EXPECT_EQ(a.texture, 1u);
  EXPECT_FLOAT_EQ(a.alphaCutoff, 0.3f);
  EXPECT_FALSE(a.alphaBlend);
  EXPECT_EQ(b.texture, 1u);
  EXPECT_TRUE(b.alphaBlend);
  EXPECT_FLOAT_EQ(b.alphaCutoff, 0.0f);
  // The glTF default material (3.9.6): white, metallic 1, roughness 1, so no highlight.
  const world::Look fallback = world::lookOf(nullptr, 0);
  EXPECT_FLOAT_EQ(fallback.r, 1.0f);
  EXPECT_FLOAT_EQ(fallback.specular, 0.0f);
}

namespace {

const fs::path SHARED_BOX = testpaths::sharedDir() / "testdata/gltf/valid/Box/glTF-Binary/Box.glb";

// The folder override files are written to, with a copy of Box.glb beside them (model paths
// stay inside the override file's folder); one per process, so test runs side by side never
// see each other's files.
fs::path overrideDir() {
  static const testpaths::TempDir folder("overrides-test");
  fs::copy_file(SHARED_BOX, folder.path / "Box.glb", fs::copy_options::overwrite_existing);
  return folder.path;
}

fs::path writeFile(const std::string& name, const std::string& text) {
  const fs::path dir = overrideDir();
  fs::create_directories((dir / name).parent_path());
  std::ofstream(dir / name) << text;
  return dir / name;
}

std::string boxPath() {
  return "Box.glb";
}

std::string overrideFile(const std::string& component, const std::string& model) {
  return "{\n  \"overrides\": [\n    {\"component\": \"" + component + "\",\n     \"model\": \"" +
         model + "\"}\n  ]\n}\n";
}

}  // namespace

TEST(AssetOverrides, ReadsComponentsAndImportsTheirModels) {
  const fs::path file = writeFile("good.json", overrideFile("nvl72.compute_tray", boxPath()));
  auto loaded = world::loadAssetOverrides(file);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->models.size(), 1u);
  EXPECT_EQ(loaded->models[0].component, "nvl72.compute_tray");
  ASSERT_TRUE(loaded->models[0].model);
  EXPECT_EQ(loaded->models[0].model->triangleCount(), 12u);  // Box: 12 triangles (INDEX.md)
  EXPECT_EQ(loaded->cost.triangles, 12u);
}

TEST(AssetOverrides, ModelPathsAreRelativeToTheFile) {
  const fs::path file = writeFile("sub/relative.json", overrideFile("cooling.cdu", "Box.glb"));
  // Relative to the override file's folder: it does not exist there, only one folder up.
  auto missing = world::loadAssetOverrides(file);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("relative.json:4 (/overrides/0/model)"), std::string::npos)
      << missing.error();
  EXPECT_TRUE(fs::exists(file.parent_path().parent_path() / "Box.glb"));
}

// Issue 19: "../../../../etc/passwd" was opened and its first byte echoed; absolute paths were
// drawn. Model paths are confined like a glTF file's own URIs.
TEST(AssetOverrides, ModelPathsStayInsideTheFilesFolder) {
  const fs::path dir = overrideDir();
  fs::remove(dir / "sub" / "escape.glb");
  fs::create_directories(dir / "sub");
  fs::create_symlink(SHARED_BOX, dir / "sub" / "escape.glb");  // a link that leads out
  struct Case {
    std::string model, why;
  };
  for (const Case& c :
       {Case{"../../../../etc/passwd", "climbs out"}, Case{"sub/../../Box.glb", "climbs out"},
        Case{"/etc/passwd", "absolute path"}, Case{(dir / "Box.glb").string(), "absolute path"},
        Case{"sub/escape.glb", "resolves outside"}}) {
    const fs::path file = writeFile("confined.json", overrideFile("cooling.cdu", c.model));
    auto loaded = world::loadAssetOverrides(file);
    ASSERT_FALSE(loaded.ok()) << c.model;
    EXPECT_NE(loaded.error().find("confined.json:4 (/overrides/0/model)"), std::string::npos)
        << loaded.error();
    EXPECT_NE(loaded.error().find(c.why), std::string::npos) << c.model << ": " << loaded.error();
    EXPECT_EQ(loaded.error().find("glTF"), std::string::npos) << "opened: " << loaded.error();
  }
  const fs::path inside = writeFile("inside.json", overrideFile("cooling.cdu", "./Box.glb"));
  EXPECT_TRUE(world::loadAssetOverrides(inside).ok());
}

TEST(AssetOverrides, RefusalsNameFileLineAndPointer) {
  struct Case {
    std::string text;
    std::string where;
    std::string why;
  };
  const std::vector<Case> cases = {
      {overrideFile("nvl72.toaster", boxPath()), ":3 (/overrides/0/component)",
       "no built-in component called \"nvl72.toaster\""},
      {overrideFile("nvl72.rack", "nonexistent/model.glb"), ":4 (/overrides/0/model)",
       "nonexistent/model.glb"},
      {"{\"overrides\": [{\"component\": \"nvl72.rack\"}]}", ":1 (/overrides/0)",
       "missing field \"model\""},
      {"{\"overrides\": [{\"component\": \"nvl72.rack\", \"model\": \"" + boxPath() +
           "\", \"scale\": 2}]}",
       ":1 (/overrides/0/scale)", "unknown field \"scale\""},
      {"{\"overrides\": [{\"component\": \"cooling.cdu\", \"model\": \"" + boxPath() +
           "\"},\n {\"component\": \"cooling.cdu\", \"model\": \"" + boxPath() + "\"}]}",
       ":2 (/overrides/1/component)", "twice"},
      {"[1, 2]", ": ", "an asset override file is a JSON object"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const fs::path file = writeFile("bad" + std::to_string(i) + ".json", cases[i].text);
    auto loaded = world::loadAssetOverrides(file);
    ASSERT_FALSE(loaded.ok()) << i;
    EXPECT_NE(loaded.error().find(file.filename().string() + cases[i].where), std::string::npos)
        << i << ": " << loaded.error();
    EXPECT_NE(loaded.error().find(cases[i].why), std::string::npos) << i << ": " << loaded.error();
  }
}

TEST(AssetOverrides, ComponentIsReplacedByTheModelAtItsRealSize) {
  auto dims = world::Dimensions::loadDefault();
  ASSERT_TRUE(dims.ok()) << dims.error();
  auto box = world::importGltf(SHARED_BOX);
  ASSERT_TRUE(box.ok()) << box.error();
  auto plain = world::World::create(*dims);
  world::WorldDesc desc;
  desc.componentModels.push_back(
      {world::component::COMPUTE_TRAY, std::make_shared<const world::ImportedModel>(*box)});
  auto replaced = world::World::create(*dims, desc);
  ASSERT_TRUE(plain.ok() && replaced.ok()) << replaced.error();

  const world::Scene& before = (*plain)->scene();
  const world::Scene& after = (*replaced)->scene();
  ASSERT_EQ(before.prototypeCount(), after.prototypeCount());
  int trays = 0;
  for (uint32_t i = 0; i < after.prototypeCount(); ++i) {
    const world::Prototype& old = before.prototype({i});
    const world::Prototype& now = after.prototype({i});
    if (old.component != world::component::COMPUTE_TRAY) {
      EXPECT_EQ(now.parts.size(), old.parts.size()) << old.name;  // the rest is untouched
      EXPECT_EQ(now.children.size(), old.children.size()) << old.name;
      continue;
    }
    EXPECT_EQ(old.name, "compute tray");  // never the hero's open tray
    ++trays;
    EXPECT_TRUE(now.children.empty());
    ASSERT_EQ(now.parts.size(), box->instances.size());
    // Uniform fit: inside the tray's box, touching it on the tightest axis, centred.
    const glm::dvec3 oldSize = old.bounds.size(), newSize = now.bounds.size();
    double tightest = 0;
    for (int k = 0; k < 3; ++k) {
      EXPECT_LE(newSize[k], oldSize[k] * (1 + 1e-9)) << k;
      tightest = std::max(tightest, newSize[k] / oldSize[k]);
      EXPECT_NEAR(now.bounds.center()[k], old.bounds.center()[k], 1e-9);
    }
    EXPECT_NEAR(tightest, 1.0, 1e-9);
    // Box is a unit cube: every side scaled by the same factor, the tray's height.
    EXPECT_NEAR(newSize.x, newSize.y, 1e-9);
    EXPECT_NEAR(newSize.y, oldSize.y, 1e-9);
  }
  EXPECT_GE(trays, 1);
}

TEST(AssetOverrides, UnknownComponentFailsTheWorldWithoutAPartialReplacement) {
  auto dims = world::Dimensions::loadDefault();
  ASSERT_TRUE(dims.ok());
  auto box = world::importGltf(SHARED_BOX);
  ASSERT_TRUE(box.ok());
  world::WorldDesc desc;
  desc.componentModels.push_back({"nvl72.toaster", std::make_shared<world::ImportedModel>(*box)});
  auto w = world::World::create(*dims, desc);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().find("nvl72.toaster"), std::string::npos);
}

TEST(AssetOverrides, EveryComponentKeyIsUsedByABuilder) {
  world::World& w = worldtest::defaultWorld();  // the built-in world, unchanged
  for (const std::string& key : world::componentKeys()) {
    bool found = false;
    for (uint32_t i = 0; i < w.scene().prototypeCount(); ++i) {
      found = found || w.scene().prototype({i}).component == key;
    }
    EXPECT_TRUE(found) << key;
  }
}

TEST(ModelPrototype, OnlyBatchesThatNeedThemAskForTheTexturedOrAlphaPipelines) {
  // The built-in world draws without discard, and samples only in batches of the parts that
  // carry a procedural pattern (bezels, boards, SRAM): every other part skips the texture path.
  world::World& w = worldtest::defaultWorld();  // the built-in world, unchanged
  for (const world::Station& station : w.stations()) {
    world::Camera camera;
    camera.setPose(world::toPose(station.viewpoint));
    world::RenderList list;
    w.buildRenderList(camera, world::FrameDesc{}, list);
    for (const world::DrawBatch& batch : list.batches) {
      EXPECT_FALSE(batch.alphaTest) << station.name;
      for (uint32_t i = batch.firstInstance; i < batch.firstInstance + batch.instanceCount; ++i) {
        const gpu::vec4& m = list.instances[i].material;
        EXPECT_EQ(batch.textured, m.x > 0.0f) << station.name;
        if (m.x > 0.0f) {
          EXPECT_LE(m.x, float(world::PATTERN_COUNT)) << station.name;
          EXPECT_LT(m.w, 0.0f) << station.name << ": laid on the faces";
        }
      }
    }
  }
  // BoxTextured samples its image; AlphaBlendModeTest has MASK and BLEND materials.
  for (const char* file : {"BoxTextured/glTF-Binary/BoxTextured.glb",
                           "AlphaBlendModeTest/glTF-Binary/AlphaBlendModeTest.glb"}) {
    auto model = world::importGltf(testpaths::sharedDir() / "testdata/gltf/valid" / file);
    ASSERT_TRUE(model.ok()) << model.error();
    auto viewer = world::World::createViewer(*model, 1.0);
    ASSERT_TRUE(viewer.ok());
    world::Camera camera;
    camera.setPose(world::toPose((*viewer)->station("model")->viewpoint));
    world::RenderList list;
    (*viewer)->buildRenderList(camera, world::FrameDesc{}, list);
    bool textured = false, alpha = false;
    for (const world::DrawBatch& batch : list.batches) {
      textured = textured || batch.textured;
      alpha = alpha || batch.alphaTest;
    }
    EXPECT_TRUE(textured) << file;
    EXPECT_EQ(alpha, std::string(file).find("Alpha") != std::string::npos) << file;
  }
}
