/**
 * The model areas of the service, keyed by the prefix of a model label (`I-A` has prefix `I`).
 * The one place that ties a label to its create route's area segment (`/v1/images/...`) and to
 * the area's name in operation ids and shared responses (`createImageIA`, `ImageJobAccepted`).
 */
export interface Area {
  /** The path segment after /v1/ of the area's create and poll routes. */
  readonly segment: string;
  /** The area's name in operationIds (`create<name><label>`) and `<name>JobAccepted`. */
  readonly name: string;
}

export const AREAS: Readonly<Record<string, Area>> = {
  I: { segment: "images", name: "Image" },
  V: { segment: "videos", name: "Video" },
  D: { segment: "3d", name: "Model3d" },
  A: { segment: "audios", name: "Audio" },
  MC: { segment: "motion-control", name: "MotionControl" },
  LS: { segment: "lip-sync", name: "LipSync" },
  DM: { segment: "depth-maps", name: "DepthMap" },
  VU: { segment: "video-upscales", name: "VideoUpscale" },
};

export function areaOfLabel(label: string): Area | undefined {
  return AREAS[label.split("-")[0] ?? ""];
}

export function areaOfSegment(segment: string): Area | undefined {
  return Object.values(AREAS).find((area) => area.segment === segment);
}
