// The page's schedule (Sources/BreathWeb/Page/schedule.js) against a board: fed the control protocol's
// events of a session one by one, it predicts each next phase start's board tick before that phase's event
// arrives; the events carry the ticks the board reported. Prints one JSON line: compared, worst_ticks.
// Usage: node schedule_check.js EVENTS.jsonl
// SPDX-License-Identifier: Apache-2.0
'use strict';
const fs = require('fs');
const path = require('path');
const { BreathSchedule } = require(path.join(__dirname, '../../Sources/BreathWeb/Page/schedule.js'));

const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l.trim().startsWith('{'));
const schedule = new BreathSchedule();
let compared = 0, worst = 0;
const errors = [];
for (const line of lines) {
  const e = JSON.parse(line);
  if (e.event === 'phase') {
    const predicted = schedule.nextStartTick();
    if (predicted !== null) {
      const err = e.board_tick - predicted;
      errors.push(err);
      compared += 1;
      worst = Math.max(worst, Math.abs(err));
    }
  }
  schedule.onEvent(e);
}
console.log(JSON.stringify({ compared, worst_ticks: worst, errors }));
