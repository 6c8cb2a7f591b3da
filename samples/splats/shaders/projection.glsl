// A 3D Gaussian as the screen sees it, for both renderers: its covariance projected to 2D
// (Zwicker et al. 2001, as 3D Gaussian Splatting does), the inverse ("conic") the pixels are
// weighed with, the radius that holds every pixel it is drawn on, and its colour from where the
// camera stands.
#ifndef SPLATS_PROJECTION_GLSL
#define SPLATS_PROJECTION_GLSL
#include "splat_common.glsl"
#include "gaussian.glsl"

struct Projection {
  vec2 center;   // pixels, y down (as the image's rows)
  vec3 conic;    // inverse 2D covariance (xx, xy, yy), pixels
  float radius;  // pixels: past it the weight is below kMinAlpha in every direction
  float depth;   // along the view direction
  bool valid;    // in front of the near plane with a proper covariance
};

mat3 rotationOf(vec4 q) {
  float w = q.x, x = q.y, y = q.z, z = q.w;
  return mat3(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y),
              2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x),
              2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y));
}

// In front of the near plane and inside the view frustum widened by the splat's largest extent,
// so that edges stay drawn: no splat weighs a pixel past sqrt(2 ln 255) = 3.33 sigma. Both
// renderers draw only these: far off the view axis the projection (linear at the center) smears
// a splat across the screen.
bool inView(Splat s, out float depth) {
  vec3 p = (frame.view * vec4(s.position, 1.0)).xyz;
  depth = -p.z;
  float reach = 3.4 * max(s.scale.x, max(s.scale.y, s.scale.z));
  vec2 limit = 0.5 * vec2(frame.width / frame.focalX, frame.height / frame.focalY) * depth + reach;
  return depth >= kNear && all(lessThanEqual(abs(p.xy), limit));
}

Projection project(Splat s) {
  Projection p;
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
  // Where opacity * exp(-r^2 / 2 sigma^2) falls to kMinAlpha along the major axis: both renderers
  // cover exactly the pixels gaussianAlpha() weighs.
  float sigmas2 = 2.0 * log(max(s.opacity / kMinAlpha, 1.0));
  p.radius = sqrt(sigmas2 * (mid + sqrt(max(0.1, mid * mid - det))));
  p.conic = vec3(c, -b, a) / det;
  p.center = vec2(frame.focalX * t.x / z, -frame.focalY * t.y / z) + 0.5 * vec2(frame.width, frame.height);
  p.depth = z;
  p.valid = z >= kNear && det > 0.0 && p.radius > 0.0;
  return p;
}

// The splat's colour seen from the camera: its harmonics where the scene has them.
vec3 colorSeen(Splat s, uint index) {
  if (frame.shDegree == 0u) return s.color;
  // The camera's position from the view matrix (world -> camera: x' = R x + t, so eye = -R^T t).
  vec3 eye = -(transpose(mat3(frame.view)) * frame.view[3].xyz);
  return shColor(frame.sh, index, frame.shDegree, normalize(s.position - eye));
}

#endif  // SPLATS_PROJECTION_GLSL
