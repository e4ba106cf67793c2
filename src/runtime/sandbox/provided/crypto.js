// Source of the "crypto" module inside the isolate (analysis stubs; the runtime makes them real).
function unavailable(name) {
  return () => {
    throw new Error(`crypto.${name} is not available during analysis`);
  };
}

export const createHash = unavailable("createHash");
export const createHmac = unavailable("createHmac");
export const randomUUID = unavailable("randomUUID");
export const timingSafeEqual = unavailable("timingSafeEqual");

export default { createHash, createHmac, randomUUID, timingSafeEqual };
