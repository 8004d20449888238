// Inlined into every page by livelab.builder.early. A lab's build-time markup says that its
// numbers are from the build: in a browser without JavaScript (a <noscript> line) its
// controls stay disabled; in one that runs JavaScript, the class set here shows the line that
// says Python is loading instead (livelab.css), and the controls take input as soon as the
// page is parsed, long before the lab widget's modules arrive. What a student changes before
// then is numbered in data-early; widgets/lab.js starts from those values, not from saved ones.
(() => {
  if ("__livelabLabsEarly" in self) return;
  document.documentElement.classList.add("livelab-js");
  const CONTROL = '[data-livelab="lab"] [data-param]';
  const enable = () => {
    for (const control of document.querySelectorAll(CONTROL + "[disabled]")) control.disabled = false;
  };
  self.__livelabLabsEarly = { enable };
  let moves = 0;
  const mark = (event) => {
    const lab = event.target.closest?.('[data-livelab="lab"]');
    if (lab && !lab.hasAttribute("data-mounted") && event.target.matches(CONTROL)) {
      event.target.setAttribute("data-early", ++moves);
    }
  };
  document.addEventListener("input", mark, true);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", enable);
  else enable();
})();
