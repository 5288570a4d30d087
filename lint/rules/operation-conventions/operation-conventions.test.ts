import { describeHouseRule } from "../../../tests/lint/support.ts";
import rule from "./check.ts";

describeHouseRule("operation-conventions", rule);
