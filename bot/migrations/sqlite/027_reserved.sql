-- Reserved: the number of a migration made on another branch at the same time; this empty file
-- keeps the numbers without gaps until that branch is merged, and goes then.
SELECT 1;
