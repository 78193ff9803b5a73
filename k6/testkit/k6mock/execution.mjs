import { state } from './state.mjs';

export default {
  get vu() {
    return { idInTest: state.vu, iterationInInstance: state.iterationInInstance, iterationInScenario: state.iterationInInstance };
  },
  get scenario() {
    return { name: 'smoke', iterationInTest: state.iterationInTest, iterationInInstance: state.iterationInInstance };
  },
};
