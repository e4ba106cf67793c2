// Source of the "axios" module inside the isolate. Analysis only needs the shape, so that
// `axios.create(...)` at a component's top level still links and evaluates.
function unavailable() {
  throw new Error("axios is not available during analysis");
}

function makeAxios() {
  const instance = function axios() {
    return unavailable();
  };
  for (const method of ["request", "get", "delete", "head", "options", "post", "put", "patch"]) {
    instance[method] = unavailable;
  }
  instance.create = () => makeAxios();
  instance.defaults = { headers: {} };
  instance.interceptors = {
    request: { use() { return 0; }, eject() {} },
    response: { use() { return 0; }, eject() {} },
  };
  instance.isAxiosError = (e) => Boolean(e && e.isAxiosError);
  return instance;
}

const axios = makeAxios();
export default axios;
