// Source of the "axios" module inside the isolate: the runtime's axios over the sandbox fetch
// (sandbox/isolate/axios.js), captured from the host object while provided modules evaluate.
const axios = globalThis.__tributaryHost.axios;

export const AxiosError = axios.AxiosError;
export const isAxiosError = axios.isAxiosError;
export default axios;
