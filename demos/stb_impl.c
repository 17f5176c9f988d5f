/* The stb_image and stb_image_write implementations, in a file of their own so
 * that the demos' own code builds with all warnings on (this one with none). */
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
