// The board's scale run, small (benchmarks/bench_board.mjs runs 100,000): nothing lost or left queued, every rank
// exact, and a submission's cost in Blobs requests the same on a bigger board.
import assert from "node:assert/strict";
import { test } from "node:test";
import { boardHeld, measureBoard, removeRunData } from "../../../benchmarks/bench_board.mjs";

test("1,000 submissions 16 at a time: none lost, every rank exact, cost flat as the board grows", async () => {
  const report = await measureBoard({ count: 1000, concurrency: 16, checkSample: 200 });
  removeRunData();
  assert.deepEqual(
    [report.total, report.lost, report.queuedAtEnd, report.ranksChecked, report.apiRanksChecked, report.topOk],
    [1000, 0, 0, 1000, 200, true],
  );
  assert.ok(boardHeld(report));
  const requests = report.perSubmission.map((tenth) => tenth.requests);
  assert.equal(requests.length, 10);
  // Per submission: a read, two claims, the queue key and the record, then its share of merging (record read,
  // place, delete) and of board reads: about ten requests, whatever the board's size.
  for (const count of requests) assert.ok(count >= 5 && count <= 20, `requests per submission: ${requests}`);
  const firstHalf = requests.slice(0, 5).reduce((a, b) => a + b) / 5;
  const secondHalf = requests.slice(5).reduce((a, b) => a + b) / 5;
  assert.ok(secondHalf < firstHalf * 1.5, `requests per submission grew: ${requests}`);
});
