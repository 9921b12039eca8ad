#include "renderer/passes/ui_pass.h"

#include <backends/imgui_impl_vulkan.h>
#include <imgui.h>

#include "renderer/vk/check.h"
#include "renderer/vk/resources.h"

namespace renderer {
namespace {

void checkImGuiResult(VkResult result) {
  if (result != VK_SUCCESS) vkutil::failCheck("ImGui Vulkan backend", result, __FILE__, __LINE__);
}

}  // namespace

void UiPass::create(const vkutil::Context& ctx, VkFormat colorFormat, uint32_t imageCount,
                    VkCommandPool pool) {
  VkAttachmentDescription color{};
  color.format = colorFormat;
  color.samples = VK_SAMPLE_COUNT_1_BIT;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;  // draw over the scene
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  color.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &ref;
  VkSubpassDependency deps[2] = {};
  deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  deps[0].dstSubpass = 0;
  deps[0].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  deps[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  deps[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  deps[0].dstAccessMask =
      VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  deps[1].srcSubpass = 0;
  deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  deps[1].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  deps[1].dstAccessMask =
      VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  info.attachmentCount = 1;
  info.pAttachments = &color;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = 2;
  info.pDependencies = deps;
  VK_CHECK(vkCreateRenderPass(ctx.device, &info, nullptr, &m_renderPass));

  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16};
  VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  poolInfo.maxSets = 16;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  VK_CHECK(vkCreateDescriptorPool(ctx.device, &poolInfo, nullptr, &m_descriptorPool));

  m_imageCount = imageCount < 2 ? 2 : imageCount;
  initBackend(ctx, pool);
}

void UiPass::initBackend(const vkutil::Context& ctx, VkCommandPool pool) {
  ImGui_ImplVulkan_InitInfo init{};
  init.Instance = ctx.instance;
  init.PhysicalDevice = ctx.physicalDevice;
  init.Device = ctx.device;
  init.QueueFamily = ctx.queueFamily;
  init.Queue = ctx.queue;
  init.DescriptorPool = m_descriptorPool;
  init.MinImageCount = m_imageCount;
  init.ImageCount = m_imageCount;
  init.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
  init.CheckVkResultFn = checkImGuiResult;
  ImGui_ImplVulkan_Init(&init, m_renderPass);
  vkutil::submitNow(ctx, pool,
                    [](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
  ImGui_ImplVulkan_DestroyFontUploadObjects();  // the upload command has completed
}

void UiPass::reloadFonts(const vkutil::Context& ctx, VkCommandPool pool) {
  if (!created()) return;
  ImGui_ImplVulkan_Shutdown();
  // The backend's descriptor set is the pool's only one; Shutdown leaves it allocated.
  VK_CHECK(vkResetDescriptorPool(ctx.device, m_descriptorPool, 0));
  initBackend(ctx, pool);
}

void UiPass::releaseFramebuffers(const vkutil::Context& ctx) {
  for (auto& [key, fb] : m_framebuffers) vkDestroyFramebuffer(ctx.device, fb, nullptr);
  m_framebuffers.clear();
}

void UiPass::destroy(const vkutil::Context& ctx) {
  if (!created()) return;
  releaseFramebuffers(ctx);
  ImGui_ImplVulkan_Shutdown();
  vkDestroyDescriptorPool(ctx.device, m_descriptorPool, nullptr);
  vkDestroyRenderPass(ctx.device, m_renderPass, nullptr);
  m_renderPass = VK_NULL_HANDLE;
  m_descriptorPool = VK_NULL_HANDLE;
}

void UiPass::record(const vkutil::Context& ctx, VkCommandBuffer cmd, ImDrawData* drawData,
                    VkImageView view, VkExtent2D extent) {
  FramebufferKey key{view, extent.width, extent.height};
  VkFramebuffer& fb = m_framebuffers[key];
  if (!fb) {
    VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    info.renderPass = m_renderPass;
    info.attachmentCount = 1;
    info.pAttachments = &view;
    info.width = extent.width;
    info.height = extent.height;
    info.layers = 1;
    VK_CHECK(vkCreateFramebuffer(ctx.device, &info, nullptr, &fb));
  }
  VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  begin.renderPass = m_renderPass;
  begin.framebuffer = fb;
  begin.renderArea = {{0, 0}, extent};
  vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
  ImGui_ImplVulkan_RenderDrawData(drawData, cmd);
  vkCmdEndRenderPass(cmd);
}

}  // namespace renderer
