// The order in which the client sends waiting requests to the worker (runtime/page/client.js).

/**
 * Which waiting request goes next: the one nearest the viewport when it is its turn, so the
 * labs a student is looking at come alive first after a reload halfway down a page. A request
 * with no distance (a Run or a Check the student pressed) counts as in view; ties keep their
 * order.
 */
export function nextIndex(queue) {
  let best = 0;
  let bestDistance = Infinity;
  queue.forEach((request, index) => {
    const distance = request.distance ? request.distance() : 0;
    if (distance < bestDistance) [best, bestDistance] = [index, distance];
  });
  return best;
}
