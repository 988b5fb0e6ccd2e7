-- Number 023 is another branch's migration; this stand-in keeps the numbers without a gap until
-- that branch is merged (then this file goes).
SELECT 1;
