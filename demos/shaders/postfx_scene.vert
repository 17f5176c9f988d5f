#version 450
// ampvk-postfx's scene: 24 triangles turning about the image's center, each drawn from
// gl_VertexIndex and gl_InstanceIndex alone (no vertex buffer). Frame i's angle is
// i * 0.05 radians, so frame N is the same on every device.
layout(push_constant) uniform Frame {
    float angle;
    float aspect;
} frame;
layout(location = 0) out vec3 color;

void main()
{
    int n = gl_InstanceIndex;
    float a = frame.angle * (1.0 + 0.15 * float(n % 5)) + float(n) * 0.2618;
    float r = 0.25 + 0.6 * fract(float(n) * 0.618);
    vec2 center = r * vec2(cos(a), sin(a));
    float size = 0.08 + 0.05 * float(n % 3);
    float b = -a * 2.0 + float(gl_VertexIndex) * 2.0943951;
    vec2 p = center + size * vec2(cos(b), sin(b));
    gl_Position = vec4(p.x / frame.aspect, p.y, 0.0, 1.0);
    // HDR: one corner of each triangle up to 6x full scale, so that the tone map matters
    vec3 hue = 0.5 + 0.5 * cos(vec3(0.0, 2.094, 4.189) + float(n) * 0.9);
    color = hue * (gl_VertexIndex == 0 ? 6.0 : 0.6);
}
