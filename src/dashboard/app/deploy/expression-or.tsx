import { useState, type ReactNode } from "react";
import { Button } from "@mantine/core";
import { hasExpression, type FormValue } from "./prop-types.ts";

// A workflow step's prop with options: chosen from them, or typed in as text for a
// `{{ steps.<step>.$return_value }}` expression (shown so when its value holds one).

interface Props {
  value: string;
  onChange: (v: FormValue) => void;
  /** the options' select */
  children: ReactNode;
  /** the free-text input */
  text: ReactNode;
  name: string;
}

export function ExpressionOr({ value, onChange, children, text, name }: Props) {
  const [typing, setTyping] = useState(() => hasExpression(value));
  const toggle = () => {
    // an expression is no option: the list starts unchosen
    if (typing && hasExpression(value)) onChange("");
    setTyping(!typing);
  };
  return (
    <div data-expression-or={name}>
      {typing ? text : children}
      <Button size="compact-xs" variant="subtle" mt={2} onClick={toggle}>
        {typing ? "Choose from the options" : "Type an expression instead"}
      </Button>
    </div>
  );
}
