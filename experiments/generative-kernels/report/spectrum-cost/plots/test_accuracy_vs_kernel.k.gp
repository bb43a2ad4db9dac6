# kexp plot; run `gnuplot test_accuracy_vs_kernel.k.gp` here to redraw test_accuracy_vs_kernel.k.svg
set terminal svg size 1000,924 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_kernel.k.svg'
set title 'test accuracy against k: spectrum'
set xlabel 'k (kernel.k)'
set ylabel 'test accuracy'
set grid
set format x '%g'
set format y '%g'
set bmargin 8
set label 100 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0866 left font ',12'
set label 101 'Drawn over one another, with the same errors: kernel_ridge_classifier (dual) · n = 250 and primal_ridge device=cpu' at screen 0.01, screen 0.0628 left font ',12'
set label 102 'precision=double (primal) · n = 250; kernel_ridge_classifier (dual) · n = 500 and primal_ridge device=cpu precision=double' at screen 0.01, screen 0.0390 left font ',12'
set label 103 '(primal) · n = 500; and 2 more such groups.' at screen 0.01, screen 0.0152 left font ',12'
set key above maxcols 1 width 0 font ',12'
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1' 1, '2' 2, '3' 3)
$line0 << EOD
1 0.9866666666666667 0.9751196612828742 0.9982136720504592
2 0.9666666666666667 0.9551196612828742 0.9782136720504592
3 0.9666666666666667 0.9435726558990816 0.9897606774342518
EOD
$line1 << EOD
1 0.9866666666666667 0.9751196612828742 0.9982136720504592
2 0.9666666666666667 0.9551196612828742 0.9782136720504592
3 0.9666666666666667 0.9435726558990816 0.9897606774342518
EOD
$line2 << EOD
1 0.9733333333333333 0.967559830641437 0.9791068360252295
2 0.69 0.6635424868893541 0.7164575131106458
3 0.9466666666666667 0.9258500066720053 0.967483326661328
EOD
$line3 << EOD
1 0.9733333333333333 0.967559830641437 0.9791068360252295
2 0.69 0.6635424868893541 0.7164575131106458
3 0.9466666666666667 0.9258500066720053 0.967483326661328
EOD
$line4 << EOD
1 0.9950000000000001 0.9900000000000001 1
2 0.9383333333333334 0.9194036388473324 0.9572630278193343
3 0.975 0.9663397459621555 0.9836602540378444
EOD
$line5 << EOD
1 0.9950000000000001 0.9900000000000001 1
2 0.9383333333333334 0.9194036388473324 0.9572630278193343
3 0.975 0.9663397459621555 0.9836602540378444
EOD
$line6 << EOD
1 0.9800000000000001 0.9725000000000001 0.9875
2 0.9725 0.97 0.9750000000000001
3 0.9608333333333333 0.9556291683346679 0.9660374983319987
EOD
$line7 << EOD
1 0.9800000000000001 0.9725000000000001 0.9875
2 0.9725 0.97 0.9750000000000001
3 0.9608333333333333 0.9556291683346679 0.9660374983319987
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'kernel_ridge_classifier (dual) · n = 250', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge device=cpu precision=double (primal) · n = 250', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'kernel_ridge_classifier (dual) · n = 500', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'primal_ridge device=cpu precision=double (primal) · n = 500', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#E69F00' title 'kernel_ridge_classifier (dual) · n = 1000', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#56B4E9' title 'primal_ridge device=cpu precision=double (primal) · n = 1000', \
     $line6 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#000000' title 'kernel_ridge_classifier (dual) · n = 2000', \
     $line7 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#F0E442' title 'primal_ridge device=cpu precision=double (primal) · n = 2000'
