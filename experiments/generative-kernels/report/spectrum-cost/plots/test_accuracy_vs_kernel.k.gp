# kexp plot; run `gnuplot test_accuracy_vs_kernel.k.gp` here to redraw test_accuracy_vs_kernel.k.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_kernel.k.svg'
set title 'test accuracy against k'
set xlabel 'k (kernel.k)'
set ylabel 'test accuracy'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0218 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1' 1, '2' 2, '3' 3)
$line0 << EOD
1 0.9733333333333333 0.9617863279495408 0.9848803387171258
2 0.8866666666666667 0.8635726558990816 0.9097606774342518
3 0.9333333333333332 0.8917000133440106 0.9749666533226559
EOD
$line1 << EOD
1 0.9733333333333333 0.9617863279495408 0.9848803387171258
2 0.8866666666666667 0.8635726558990816 0.9097606774342518
3 0.9333333333333332 0.8917000133440106 0.9749666533226559
EOD
$line2 << EOD
1 0.9833333333333334 0.9717863279495409 0.9948803387171259
2 0.7200000000000001 0.72 0.7200000000000002
3 0.96 0.95 0.97
EOD
$line3 << EOD
1 0.9833333333333334 0.9717863279495409 0.9948803387171259
2 0.7200000000000001 0.72 0.7200000000000002
3 0.96 0.95 0.97
EOD
$line4 << EOD
1 0.985 0.971771243444677 0.998228756555323
2 0.9316666666666666 0.8948110926875067 0.9685222406458266
3 0.9633333333333333 0.9381672185490975 0.9884994481175691
EOD
$line5 << EOD
1 0.985 0.971771243444677 0.998228756555323
2 0.9316666666666666 0.8948110926875067 0.9685222406458266
3 0.9633333333333333 0.9381672185490975 0.9884994481175691
EOD
$line6 << EOD
1 0.9858333333333333 0.9763684860903329 0.9952981805763338
2 0.9700000000000001 0.9585435607626105 0.9814564392373897
3 0.9525 0.9434861218113401 0.96151387818866
EOD
$line7 << EOD
1 0.9858333333333333 0.9763684860903329 0.9952981805763338
2 0.9700000000000001 0.9585435607626105 0.9814564392373897
3 0.9525 0.9434861218113401 0.96151387818866
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'spectrum · kernel_ridge_classifier (dual) · n=250', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'spectrum · primal_ridge (primal) · n=250', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'spectrum · kernel_ridge_classifier (dual) · n=500', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'spectrum · primal_ridge (primal) · n=500', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#E69F00' title 'spectrum · kernel_ridge_classifier (dual) · n=1000', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#56B4E9' title 'spectrum · primal_ridge (primal) · n=1000', \
     $line6 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#000000' title 'spectrum · kernel_ridge_classifier (dual) · n=2000', \
     $line7 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#F0E442' title 'spectrum · primal_ridge (primal) · n=2000'
