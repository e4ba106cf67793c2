import { createContext, useContext } from "react";

// What a step's Test button needs from the editor around it: the workflow (a new one has no runs
// to test against, so it has no context) and the run chosen to test against, shared by every step.

export interface StepTestTarget {
  workflowId: string;
  /** the run whose trigger event and earlier steps' results a tested step sees */
  runId: string | undefined;
}

export const StepTestContext = createContext<StepTestTarget | null>(null);

export const useStepTestTarget = (): StepTestTarget | null => useContext(StepTestContext);
