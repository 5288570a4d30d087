import { describeHouseRule } from "../../../tests/lint/support.ts";
import rule from "./check.ts";

describeHouseRule("no-discriminator", rule);
