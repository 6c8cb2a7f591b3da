// One screen-space quad per visible splat, in sorted (back-to-front) instance order: the 3D
// Gaussian's covariance projected to 2D (Zwicker et al. 2001, as 3D Gaussian Splatting does), a
// quad of 3 sigma around its center.
#version 450
#include "splat_common.glsl"

layout(location = 0) out vec3 outColor;
layout(location = 1) out float outOpacity;
layout(location = 2) out vec3 outConic;   // inverse 2D covariance (xx, xy, yy), pixels
layout(location = 3) out vec2 outOffset;  // pixels from the center

mat3 rotationOf(vec4 q) {
  float w = q.x, x = q.y, y = q.z, z = q.w;
  return mat3(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y),
              2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x),
              2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y));
}

void main() {
  const vec2 corners[4] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(1, 1));
  Splat s = frame.splats.v[frame.indices.v[gl_InstanceIndex]];  // (and below: its harmonics)
  vec3 t = (frame.view * vec4(s.position, 1.0)).xyz;
  float z = -t.z;
  mat3 M = rotationOf(s.rotation) * mat3(s.scale.x, 0, 0, 0, s.scale.y, 0, 0, 0, s.scale.z);
  mat3 world = M * transpose(M);
  // Jacobian of (x, y) = focal * (t.x, t.y) / -t.z at t, then the view rotation.
  mat3 J = mat3(frame.focalX / z, 0.0, 0.0, 0.0, frame.focalY / z, 0.0,
                frame.focalX * t.x / (z * z), frame.focalY * t.y / (z * z), 0.0);
  mat3 T = J * mat3(frame.view);
  mat3 cov = T * world * transpose(T);
  // In pixels, y down: the xy term changes sign. 0.3 keeps every splat about a pixel wide.
  float a = cov[0][0] + 0.3, b = -cov[0][1], c = cov[1][1] + 0.3;
  float det = a * c - b * b;
  float mid = 0.5 * (a + c);
  float radius = 3.0 * sqrt(mid + sqrt(max(0.1, mid * mid - det)));
  // The camera's position from the view matrix (world -> camera: x' = R x + t, so eye = -R^T t).
  vec3 eye = -(transpose(mat3(frame.view)) * frame.view[3].xyz);
  uint index = frame.indices.v[gl_InstanceIndex];
  outColor = frame.shDegree == 0u ? s.color : shColor(frame.sh, index, frame.shDegree, normalize(s.position - eye));
  outOpacity = s.opacity;
  outConic = vec3(c, -b, a) / det;
  outOffset = corners[gl_VertexIndex] * radius;
  // Center in pixels (y down, as the image's rows), then the corner.
  vec2 center = vec2(frame.focalX * t.x / z, -frame.focalY * t.y / z) + 0.5 * vec2(frame.width, frame.height);
  vec2 pixel = center + outOffset;
  gl_Position = vec4(pixel / vec2(frame.width, frame.height) * 2.0 - 1.0, 0.5, 1.0);
  if (z < kNear || det <= 0.0) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // off screen
}
