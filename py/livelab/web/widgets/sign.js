// The "±" button beside a number field (button[data-sign], aria-controls naming the field).
// A phone's decimal keypad (iOS's) has digits and a decimal point only, so this button puts a
// minus sign in front of the field's text, or takes it away, and leaves the rest of the text
// and the caret as they were. An input event follows, as if the student had typed the sign,
// so whatever listens to the field hears of it: a question's verdict goes stale, a lab updates.

const MINUS = /^[-−–﹣－]/u;

/** Put a minus sign in front of the field's text, or take it away. */
export function toggleSign(field) {
  const text = field.value;
  if (field.type === "number" && text === "") return; // a number field cannot hold a lone "-"
  const lead = text.length - text.trimStart().length;
  const signed = MINUS.test(text.slice(lead));
  const focused = document.activeElement === field;
  const caret = field.type === "text" ? field.selectionStart : null;
  field.value = signed ? text.slice(0, lead) + text.slice(lead + 1) : `${text.slice(0, lead)}-${text.slice(lead)}`;
  if (focused && caret !== null) {
    const at = signed ? (caret > lead ? caret - 1 : caret) : caret >= lead ? caret + 1 : caret;
    field.setSelectionRange(at, at);
  }
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

/** Make the sign buttons inside root work; returns a function that undoes it. */
export function bindSign(root) {
  const button = (event) => {
    const found = event.target.closest?.("button[data-sign]");
    return found && root.contains(found) && !found.disabled ? found : null;
  };
  const field = (found) => document.getElementById(found.getAttribute("aria-controls"));
  // A tap on the button leaves the focus (and a phone's keyboard) in a field that has it.
  const onMouseDown = (event) => {
    const found = button(event);
    if (found && document.activeElement === field(found)) event.preventDefault();
  };
  const onClick = (event) => {
    const found = button(event);
    if (found && field(found)) toggleSign(field(found));
  };
  root.addEventListener("mousedown", onMouseDown);
  root.addEventListener("click", onClick);
  return () => {
    root.removeEventListener("mousedown", onMouseDown);
    root.removeEventListener("click", onClick);
  };
}
