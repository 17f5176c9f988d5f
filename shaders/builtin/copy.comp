// Built-in: copies n 16-byte words from src to dst, a grid-stride loop. ampvk uses it
// to write device data into imported host memory: stores from the shader cores
// stream over the bus faster than the copy a queue of the compute family does.
#version 460
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer src_t { uvec4 src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer dst_t { uvec4 dst[]; };
layout(push_constant) uniform push_t { uint n; };

void main()
{
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) dst[i] = src[i];
}
