#!/usr/bin/env node
// forumctl runs from the compiled output (`npm install` builds it through the `prepare` script).
import '../dist/cli/forumctl.js';
