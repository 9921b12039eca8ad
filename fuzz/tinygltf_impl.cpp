// tinygltf and stb_image compiled into the fuzz build (instead of Debian's prebuilt library), so
// their parsing is instrumented for coverage and checked by ASan/UBSan like our own code.
#define TINYGLTF_IMPLEMENTATION
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <tiny_gltf.h>
